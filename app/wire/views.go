package wire

import "encoding/json"

// The answers of the ABCI queries (docs/queries.md), one struct per answer.
// Their JSON is the app's answer byte for byte: answers that were once maps
// keep their keys in alphabetical order (so do these structs' fields), the
// objects of the wire types keep their proto field order, no field is
// omitted, and a pointer field is null where the key does not apply.

// StatusView answers "status". ChainID is nil before InitChain;
// GenesisHash (app.GenesisHash: the genesis the chain was initialised with)
// is nil before InitChain and on a chain begun by a version that did not
// store it.
type StatusView struct {
	AppHash     string  `json:"app_hash"`
	ChainID     *string `json:"chain_id"`
	GenesisHash *string `json:"genesis_hash"`
	Height      int64   `json:"height"`
}

// ParamsView answers "params": the app state in force at the next height
// (its validators the set in force), the height from which it holds, and
// the upgrades scheduled after it (docs/governance.md).
type ParamsView struct {
	AppState    json.RawMessage       `json:"app_state"`
	ChainID     string                `json:"chain_id"`
	InForceFrom int64                 `json:"in_force_from"`
	Scheduled   []ScheduledParamsView `json:"scheduled"`
}

// ScheduledParamsView is an upgrade that passed and is not in force yet.
type ScheduledParamsView struct {
	ActivationHeight int64           `json:"activation_height"`
	AppState         json.RawMessage `json:"app_state"`
	ProposalID       uint64          `json:"proposal_id"`
}

// ValidatorsView answers "validators": the set in force at the next
// height, the sets CometBFT will apply after it, and the approved changes
// still queued.
type ValidatorsView struct {
	Queued     []string           `json:"queued"`
	Scheduled  []ScheduledSetView `json:"scheduled"`
	TotalPower int64              `json:"total_power"`
	Validators []ValidatorView    `json:"validators"`
}

// ScheduledSetView is a set CometBFT applies from a coming height.
type ScheduledSetView struct {
	From       int64           `json:"from"`
	TotalPower int64           `json:"total_power"`
	Validators []ValidatorView `json:"validators"`
}

// ProposalView answers "proposal/<id>" (and is each entry of "proposals").
// Changes are x/valset's words for each change; Params is the proposal's
// merge patch.
type ProposalView struct {
	ActivationHeight *int64          `json:"activation_height"`
	ApprovedPower    int64           `json:"approved_power"`
	Approvals        []string        `json:"approvals"`
	Changes          []string        `json:"changes"`
	DecidedHeight    int64           `json:"decided_height"`
	ExpiresHeight    int64           `json:"expires_height"`
	ID               uint64          `json:"id"`
	Kind             string          `json:"kind"`
	Params           json.RawMessage `json:"params"`
	ProposedHeight   int64           `json:"proposed_height"`
	Proposer         string          `json:"proposer"`
	Status           string          `json:"status"`
	TotalPower       int64           `json:"total_power"`
}

// ProposalsView answers "proposals": the newest proposals (at most
// MaxProposalsListed), newest first, and how many exist.
type ProposalsView struct {
	Count     uint64         `json:"count"`
	Proposals []ProposalView `json:"proposals"`
}

// MaxProposalsListed bounds the "proposals" answer.
const MaxProposalsListed = 100

// MisbehaviourView answers "misbehaviour/<n>": the n-th evidence recorded.
type MisbehaviourView struct {
	Height         int64  `json:"height"`
	Kind           string `json:"kind"`
	Note           string `json:"note"`
	RecordedHeight int64  `json:"recorded_height"`
	Slashed        bool   `json:"slashed"`
	Validator      string `json:"validator"`
}

// ValidatorView is one validator: Index is its registry index (stable for
// the life of the chain; votes name it); ReportKey is the hex key that
// signs its tasks, reports, truths and proposals.
type ValidatorView struct {
	Index     int    `json:"index"`
	Name      string `json:"name"`
	Address   string `json:"address"`
	Power     int64  `json:"power"`
	ReportKey string `json:"report_key"`
}

// AccountView answers "account/<pubkey hex>". UID is nil unless the key is a
// miner; Validator (its name) is nil unless the key is a validator's report key.
type AccountView struct {
	Miner     bool    `json:"miner"`
	NextNonce uint64  `json:"next_nonce"`
	Pubkey    string  `json:"pubkey"`
	UID       *uint32 `json:"uid"`
	Validator *string `json:"validator"`
}

// MinerView answers "miner/<uid>": the miner's aggregate per track, nil
// where it has none.
type MinerView struct {
	// Address is where the uid's daemon serves revealed artifacts (its
	// last accepted MsgServe; omitted before any).
	Address string  `json:"address,omitempty"`
	Arena   *string `json:"arena"`
	Gas     *string `json:"gas"`
	// ImmuneThrough is the last height at which the uid cannot be replaced
	// (membership.ImmuneThrough of RegisteredHeight).
	ImmuneThrough int64 `json:"immune_through"`
	// Mirror is the uid's parent-chain holder and binding (mirror mode only).
	Mirror *MirrorMinerView `json:"mirror,omitempty"`
	// Pubkey is the key that owns the uid ("" in mirror mode while the
	// uid is not bound).
	Pubkey           string `json:"pubkey"`
	RegisteredHeight int64  `json:"registered_height"`
	// ServedHeight is the height of the uid's last accepted MsgServe
	// (omitted before any): the next is accepted from ServedHeight +
	// ServeInterval.
	ServedHeight int64   `json:"served_height,omitempty"`
	UID          uint32  `json:"uid"`
	Workflow     *string `json:"workflow"`
}

// aggregate is the field of a track's aggregate (nil for an unknown track).
func (m *MinerView) aggregate(track string) **string {
	switch track {
	case "workflow":
		return &m.Workflow
	case "arena":
		return &m.Arena
	case "gas":
		return &m.Gas
	}
	return nil
}

// SetAggregate records the aggregate of a track; it reports false for a
// track the view has no field for.
func (m *MinerView) SetAggregate(track, score string) bool {
	f := m.aggregate(track)
	if f != nil {
		*f = &score
	}
	return f != nil
}

// Aggregate returns the aggregate of a track, if the miner has one.
func (m *MinerView) Aggregate(track string) (string, bool) {
	f := m.aggregate(track)
	if f == nil || *f == nil {
		return "", false
	}
	return **f, true
}

// TaskView answers "task/<id>": exactly one of Workflow and Arena is set.
type TaskView struct {
	Arena          *ArenaTaskView    `json:"arena"`
	ID             uint64            `json:"id"`
	PostedHeight   int64             `json:"posted_height"`
	Poster         string            `json:"poster"`
	ReportDeadline int64             `json:"report_deadline"`
	RevealDeadline int64             `json:"reveal_deadline"`
	Submissions    uint64            `json:"submissions"`
	SubmitDeadline int64             `json:"submit_deadline"`
	Track          string            `json:"track"`
	Workflow       *WorkflowTaskView `json:"workflow"`
}

// SubmissionView answers "submission/<id>": the submission, its votes in
// arrival order and its score receipt (nil while pending). Gas is nil for
// workflow and arena; the task fields are nil for gas.
//
// Height and BlockTime are the commit's; RevealHeight is 0 until the reveal
// (the artifact hash, or the gas price, is empty until then). A duplicate
// names the keeper of its artifact: DuplicateOfUID and DuplicateOfHeight
// (its commit height), nil otherwise; NearCopy (absent when false) says the
// duplicate verdict came from the validators' reports, not an equal
// artifact hash.
type SubmissionView struct {
	ArtifactHash      *string         `json:"artifact_hash"`
	BlockTime         int64           `json:"block_time"`
	Commitment        string          `json:"commitment"`
	Duplicate         bool            `json:"duplicate"`
	DuplicateOfHeight *int64          `json:"duplicate_of_height"`
	DuplicateOfUID    *uint32         `json:"duplicate_of_uid"`
	Gas               *GasPredictView `json:"gas"`
	Height            int64           `json:"height"`
	ID                uint64          `json:"id"`
	NearCopy          bool            `json:"near_copy,omitempty"`
	RevealHeight      int64           `json:"reveal_height"`
	Receipt           *ReceiptView    `json:"receipt"`
	ReportDeadline    *int64          `json:"report_deadline"`
	Status            string          `json:"status"`
	TaskID            *uint64         `json:"task_id"`
	Track             string          `json:"track"`
	UID               uint32          `json:"uid"`
	Votes             []VoteView      `json:"votes"`
}

// VoteView is one validator's report: the kinds that do not apply are nil.
// DuplicateOf (absent when 0) is the earlier submission the validator
// judged the reported one a near-copy of.
type VoteView struct {
	Validator   string                   `json:"validator"`
	Height      int64                    `json:"height"`
	Workflow    *WorkflowMeasurementView `json:"workflow"`
	Arena       *ArenaMeasurementView    `json:"arena"`
	Truth       *TruthView               `json:"truth"`
	DuplicateOf uint64                   `json:"duplicate_of,omitempty"`
}

// WindowView answers "window/<uid>": a track is nil before the miner's first
// score of it.
type WindowView struct {
	Arena    *TrackWindowView `json:"arena"`
	UID      uint32           `json:"uid"`
	Workflow *TrackWindowView `json:"workflow"`
}

// TrackWindowView is a miner's window of one track, scores oldest first.
// Aggregate is the warmed mean (the track's aggregate while the miner is
// active); LastHeight the height of its latest scored task, from which the
// track's activity_cutoff_blocks is measured.
type TrackWindowView struct {
	Aggregate  *string  `json:"aggregate,omitempty"`
	LastHeight int64    `json:"last_height"`
	Mean       string   `json:"mean"`
	Scores     []string `json:"scores"`
	TasksSeen  uint64   `json:"tasks_seen"`
}

// BaselineView answers "baseline/<task id>": the arena baseline the next
// block scores against, and the samples it comes from (oldest first).
type BaselineView struct {
	Baseline    *ArenaBaselineView `json:"baseline"`
	Recent      []ArenaSampleView  `json:"recent"`
	Samples     int                `json:"samples"`
	TaskID      uint64             `json:"task_id"`
	UsesDefault bool               `json:"uses_default"`
}

// LeaderboardView answers "leaderboard/<track>": aggregates, highest first,
// ties by uid.
type LeaderboardView struct {
	Height int64              `json:"height"`
	Miners []LeaderboardEntry `json:"miners"`
	Track  string             `json:"track"`
	// Ranks says what the score is (the track's aggregate, as epochs use it).
	Ranks string `json:"ranks"`
	// Empty says why no miner is on the board; null when one is.
	Empty *string `json:"empty"`
}

// LeaderboardEntry is one row of a leaderboard.
type LeaderboardEntry struct {
	Rank  int    `json:"rank"`
	UID   uint32 `json:"uid"`
	Score string `json:"score"`
	// Mean is the window's mean before the warm-up scales it, TasksSeen and
	// WarmupTasks what the warm-up factor min(1, tasks_seen / warmup_tasks)
	// is made of (workflow and arena; null for gas, which has none).
	Mean        *string `json:"mean"`
	TasksSeen   *uint64 `json:"tasks_seen"`
	WarmupTasks *int    `json:"warmup_tasks"`
}

// EpochView answers "epoch/latest" and "epoch/<n>".
type EpochView struct {
	Epoch      *EpochResultView `json:"epoch"`
	WeightsSum string           `json:"weights_sum"`
}

// TruthRoundView answers "truth/<evm chain id>/<evm block>": the round's
// votes and status ("pending", "final", "expired", "contested"); ClosedHeight once it
// ended; for a final round its aggregated MinPrice and Timestamp and the
// reveal window [RevealFrom, RevealUntil] of the EVM block's commits.
type TruthRoundView struct {
	ClosedHeight *int64 `json:"closed_height"`
	Deadline     int64  `json:"deadline"`
	EvmBlock     uint64 `json:"evm_block"`
	EvmChainID   uint64 `json:"evm_chain_id"`
	// Empty (final rounds): the block had no priced transaction; MinPrice
	// and the reveal window are then null.
	Empty         bool       `json:"empty,omitempty"`
	MinPrice      *string    `json:"min_price"`
	OpenedHeight  int64      `json:"opened_height"`
	ReportedPower int64      `json:"reported_power"`
	RevealFrom    *int64     `json:"reveal_from"`
	RevealUntil   *int64     `json:"reveal_until"`
	Status        string     `json:"status"`
	Timestamp     *int64     `json:"timestamp"`
	Votes         []VoteView `json:"votes"`
}

// CountsView answers "counts": counts the committed state keeps as it goes,
// so that reading them costs a few keys whatever the state's size. UIDs are
// the uids held by a miner (handed out, less those freed by deregistration
// and not handed out again; in mirror mode every uid but the burn uid);
// OpenTasks the posted tasks whose settlement is not done (all tracks);
// Tracks the same per track, in genesis order, with the commits awaiting
// their reveal.
type CountsView struct {
	Height    int64            `json:"height"`
	UIDs      uint64           `json:"uids"`
	OpenTasks uint64           `json:"open_tasks"`
	Tracks    []TrackCountView `json:"tracks"`
}

// TrackCountView is one track's counts: its posted tasks whose settlement
// is not done (0 on gas, which has no tasks), and its commits whose reveal
// has not come and whose reveal window the chain has not closed.
type TrackCountView struct {
	Track          string `json:"track"`
	OpenTasks      uint64 `json:"open_tasks"`
	AwaitingReveal uint64 `json:"awaiting_reveal"`
}

// RegistrationView answers "registration": what a registration pays in the
// next block. Recent are the recorded block hashes a registration's work may
// bind (newest first): the next block accepts work on any of them.
type RegistrationView struct {
	// AdjustAt is the height at the end of which the difficulty is next
	// adjusted; IntervalRegistrations the registrations counted toward it.
	AdjustAt              int64           `json:"adjust_at"`
	Difficulty            uint64          `json:"difficulty"`
	Height                int64           `json:"height"`
	IntervalRegistrations uint64          `json:"interval_registrations"`
	MaxPerBlock           uint32          `json:"max_per_block"`
	Recent                []BlockHashView `json:"recent"`
}

// BlockHashView is one recorded block hash (hex).
type BlockHashView struct {
	Hash   string `json:"hash"`
	Height int64  `json:"height"`
}

// MirrorMinerView is a uid's holder on the parent chain (its entry in the
// final snapshot) and the tx key bound to it, in mirror mode. Hotkey is ""
// when the uid is not in the final snapshot; TxKey is "" and ParentBlock 0
// while it is not bound.
type MirrorMinerView struct {
	Hotkey          string `json:"hotkey"`
	ParentBlock     uint64 `json:"parent_block"`
	RegisteredBlock uint64 `json:"registered_block"`
	TxKey           string `json:"tx_key"`
}

// MirrorView answers "mirror": the last final snapshot of the parent's
// metagraph (its parent block, digest and entries) and the attestation
// rounds still open. Digest is "" before the first final snapshot, when
// FinalBlock is genesis' mirror.start_block.
type MirrorView struct {
	AttestationBlocks uint64   `json:"attestation_blocks"`
	Digest            string   `json:"digest"`
	Entries           int      `json:"entries"`
	FinalBlock        uint64   `json:"final_block"`
	NetUID            uint16   `json:"netuid"`
	OpenBlocks        []uint64 `json:"open_blocks"`
	OpenRounds        int      `json:"open_rounds"`
}

// GasChainView answers "gaschain/<evm chain id>": how far the chain has
// closed an EVM chain of the gas track. LastClosedBlock (the first block of
// the last closed window), LastMinPrice and LastTimestamp are null before the
// first close; WindowBlocks is the chain's window size k in force. A truth
// oracle resumes from LastClosedBlock + WindowBlocks. Paused is set while
// governance has paused the chain (chain.gas_paused: nothing is taken or
// owed for it); ResumeBlock is the EVM block a resumed chain restarted
// from. Both are omitted for a chain never paused.
type GasChainView struct {
	EvmChainID      uint64  `json:"evm_chain_id"`
	WindowBlocks    uint64  `json:"window_blocks"`
	LastClosedBlock *uint64 `json:"last_closed_block"`
	LastMinPrice    *string `json:"last_min_price"`
	LastTimestamp   *int64  `json:"last_timestamp"`
	Paused          bool    `json:"paused,omitempty"`
	ResumeBlock     *uint64 `json:"resume_block,omitempty"`
}
