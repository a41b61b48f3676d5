package simsubnet

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/scoringsubnet/validatord/x/commit"
)

// Mode is how the simulated actors package their messages: ModeOff sends
// each message as its own transaction; ModeBatch packs a validator's
// reports of a track into MsgReportBatch transactions; ModeAll batches
// every message that has a batch form (batch.go).
type Mode string

const (
	// ModeOff: batching off, every message its own signed transaction.
	ModeOff Mode = "off"
	// ModeBatch: at each height, a validator's reports of one track that
	// are due then go out as one MsgReportBatch (split at
	// wire.MaxReportBatch entries and at max_tx_bytes).
	ModeBatch Mode = "batch"
	// ModeAll: every message with a batch form is batched, as a daemon
	// would send them. At each height a validator's reports of both task
	// tracks go out as one MsgReportBatch and its truths as one
	// MsgTruthBatch; a miner's commits to the two tasks posted together
	// as one MsgCommitBatch, and their reveals as one MsgRevealBatch. A
	// gas agent commits its predictions of GasRun EVM blocks at once
	// (MsgCommitBatch) and reveals what is final every GasRevealEvery
	// blocks (MsgRevealBatch).
	ModeAll Mode = "all"
)

// Modes are the modes that exist, in the table's column order.
var Modes = []Mode{ModeOff, ModeBatch, ModeAll}

// ParseModes reads a comma-separated list of modes; each must exist.
func ParseModes(s string) ([]Mode, error) {
	var out []Mode
	for _, f := range strings.Split(s, ",") {
		m := Mode(strings.TrimSpace(f))
		if !m.exists() {
			return nil, &ConfigError{Field: "mode", Value: string(m), Reason: fmt.Sprintf("not a mode of this build (modes: %s)", modeNames())}
		}
		out = append(out, m)
	}
	return out, nil
}

// column is the mode's heading in the table.
func (m Mode) column() string {
	switch m {
	case ModeBatch:
		return "batching on (report batches)"
	case ModeAll:
		return "batching on (every batch form)"
	}
	return "batching " + string(m)
}

func (m Mode) exists() bool {
	for _, k := range Modes {
		if k == m {
			return true
		}
	}
	return false
}

func modeNames() string {
	names := make([]string, len(Modes))
	for i, m := range Modes {
		names[i] = string(m)
	}
	return strings.Join(names, ", ")
}

// Task windows of every posted task and the tracks' reveal windows, in
// blocks. The commit and report windows are short so that retention can act
// within a run (the genesis bounds max_submission_blocks and
// max_report_blocks are set to them); the reveal window is the default.
const (
	SubmissionBlocks = 4
	RevealBlocks     = commit.DefaultRevealBlocks
	ReportBlocks     = 12
	// ReportSpread: an honest validator reports a submission within this
	// many blocks of the reports' opening (its measurement takes a while),
	// so a task's reports spread over most of the blocks until the next.
	ReportSpread = 10
	// TruthReportBlocks is the sim genesis' chain.truth_report_blocks.
	TruthReportBlocks = 10
)

// Gas timing, in seconds of block time (blocks are BlockSeconds apart).
const (
	BlockSeconds = 1
	// GasLead: a miner commits its prediction of an EVM block this long
	// before the block's timestamp (the gas track's commit margin is 2 s).
	GasLead = 4
	// GasConfirm: validators report an EVM block's truth once it is this
	// old (their oracle's confirmations).
	GasConfirm = 2
	// EVMChain and EVMBase: the one EVM chain the sim follows (Base, 2 s
	// blocks) and the number of its block 0 in the sim.
	EVMChain = 8453
	EVMBase  = 20_000_000
	// GasRun (ModeAll): a gas agent commits to the EVM blocks of a run of
	// GasRun at once, the run's first GasLead seconds ahead; the sim
	// genesis' max_prediction_ahead (MaxPredictionAhead) leaves room for
	// the run past the last closed block.
	GasRun = 8
	// GasRevealEvery (ModeAll): a gas agent reveals its final predictions
	// at heights that are multiples of GasRevealEvery (its own offset of
	// 0 or 1 added), inside every reveal window of RevealBlocks (10).
	GasRevealEvery = 8
	// MaxPredictionAhead is the sim genesis' chain.max_prediction_ahead:
	// a run's last block is GasRun - 1 past its first, which is about 4
	// EVM blocks past the last closed one (GasLead ahead of the clock, the
	// truths GasConfirm behind it and a block or two to settle); 15 is the
	// largest value whose gas close fits the genesis bound at 256 uids.
	MaxPredictionAhead = 15
)

// Config is one simulation: the subnet's shape, the load's cadence and the
// chain parameters that decide when state is written and retired.
type Config struct {
	// Validators (V) and Miners (N): the subnet's shape.
	Validators, Miners int
	// Blocks: heights run after InitChain.
	Blocks int64
	// TaskEvery: a workflow and an arena task are posted every TaskEvery
	// blocks, and every miner commits to both.
	TaskEvery int64
	// EVMEvery: an EVM block every EVMEvery chain blocks; every miner
	// predicts each one and every validator reports its truth.
	EVMEvery int64
	// EpochBlocks: window.epoch_blocks.
	EpochBlocks int64
	// RetainStateBlocks: chain.retain_state_blocks (0 keeps everything).
	RetainStateBlocks int64
	// SampleEvery: the state's size is read after every SampleEvery blocks
	// (and after the last).
	SampleEvery int64
	// Mode: how messages are packaged.
	Mode Mode
	// Seed names every key, salt and measurement: the same seed, the same
	// chain.
	Seed string
	// Dir is the badger directory (it must not exist or be empty).
	Dir string
	// Progress, when set, gets a line after each state sample.
	Progress io.Writer
}

// FullConfig is the subnet at a real Bittensor shape: 64 validators with
// permits, 256 uids, a workflow and an arena task every 12 blocks of 1 s,
// a 2 s EVM chain, epochs of 120 blocks (three in a 360-block tempo), state
// retired 300 blocks after it settles, its size read every 1,000 blocks.
func FullConfig() Config {
	return Config{Validators: 64, Miners: 256, Blocks: 3000, TaskEvery: 12, EVMEvery: 2, EpochBlocks: 120,
		RetainStateBlocks: 300, SampleEvery: 1000, Mode: ModeOff, Seed: "simsubnet"}
}

// ReducedConfig is the size `make test` runs: 8 validators, 16 miners, 120
// blocks, epochs of 20 and retention at 40 blocks, so both act in the run.
func ReducedConfig() Config {
	return Config{Validators: 8, Miners: 16, Blocks: 120, TaskEvery: 12, EVMEvery: 2, EpochBlocks: 20,
		RetainStateBlocks: 40, SampleEvery: 120, Mode: ModeOff, Seed: "simsubnet"}
}

// ConfigError names a field of Config and why its value is refused.
type ConfigError struct {
	Field, Value, Reason string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("simsubnet: %s = %s: %s", e.Field, e.Value, e.Reason)
}

// Validate checks every field.
func (c Config) Validate() error {
	err := atLeast("validators", int64(c.Validators), 4)
	err = cmp.Or(err, atLeast("miners", int64(c.Miners), 1), atLeast("blocks", c.Blocks, 1))
	err = cmp.Or(err, atLeast("task_every", c.TaskEvery, 1), atLeast("evm_every", c.EVMEvery, 1))
	err = cmp.Or(err, atLeast("epoch_blocks", c.EpochBlocks, 1), atLeast("sample_every", c.SampleEvery, 1))
	err = cmp.Or(err, atLeast("retain_state_blocks", c.RetainStateBlocks, 0))
	if err != nil {
		return err
	}
	if c.Miners > 65535 {
		return &ConfigError{Field: "miners", Value: fmt.Sprint(c.Miners), Reason: "more than the uid space"}
	}
	if !c.Mode.exists() {
		return &ConfigError{Field: "mode", Value: string(c.Mode), Reason: fmt.Sprintf("not a mode of this build (modes: %s)", modeNames())}
	}
	if c.Dir == "" {
		return &ConfigError{Field: "dir", Value: `""`, Reason: "the badger directory is required"}
	}
	return nil
}

// atLeast is a ConfigError when v < min, else nil.
func atLeast(field string, v, min int64) error {
	if v < min {
		return &ConfigError{Field: field, Value: fmt.Sprint(v), Reason: fmt.Sprintf("must be at least %d", min)}
	}
	return nil
}
