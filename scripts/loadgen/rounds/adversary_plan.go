package rounds

import (
	"crypto/ed25519"
	"encoding/hex"
	"fmt"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
)

// The adversary's sequences, as values: what to send given the chain's height, its
// gas window and the clock. Nothing here talks to a node.

// minSpan is the fewest blocks between a task's expected inclusion and its report deadline,
// besides its reveal window: one to commit, one to report.
const minSpan = 2

// leastSpan is the fewest blocks between a flooded task's inclusion and its report deadline on
// this chain: minSpan and the longer reveal window of the task tracks (reports open only once
// it has closed).
func leastSpan(st genesis.AppState) int64 {
	var reveal int64
	for _, name := range []string{genesis.TrackWorkflow, genesis.TrackArena} {
		if t, ok := st.Track(name); ok {
			reveal = max(reveal, t.RevealBlocks)
		}
	}
	return minSpan + reveal
}

// stackDeadline is the report deadline the next flooded task aims at: cur while it is still
// more than least blocks past next (the height the task should land in), else next + lead (a
// lead below least is raised to it). Every task of a flood thus shares one deadline until it
// comes near.
func stackDeadline(cur, next, lead, least int64) int64 {
	if cur-next > least {
		return cur
	}
	return next + max(lead, least)
}

// stackedTask is the i-th task of a flood: posted in block next, its report deadline is
// deadline (submission and report windows split the span its reveal window leaves, as
// app/tasks computes the deadline: next + submission_blocks + reveal_blocks + report_blocks).
// Workflow and, when the chain runs the arena, arena tasks alternate. ok is false when the
// span is too short or too long for the chain's windows.
func stackedTask(st genesis.AppState, i int, next, deadline int64) (*subnetv1.Msg, bool) {
	arena := st.HasTrack(genesis.TrackArena) && len(st.Arena.Categories) > 0 && len(st.Arena.Difficulties) > 0
	track := genesis.TrackWorkflow
	if i%2 == 1 && arena || !st.HasTrack(genesis.TrackWorkflow) {
		if !arena {
			return nil, false
		}
		track = genesis.TrackArena
	}
	t, _ := st.Track(track)
	span := deadline - next - t.RevealBlocks
	if span < minSpan || span > st.Chain.MaxSubmissionBlocks+st.Chain.MaxReportBlocks {
		return nil, false
	}
	sb := min(span/2, st.Chain.MaxSubmissionBlocks)
	rb := span - sb
	if rb > st.Chain.MaxReportBlocks {
		sb, rb = span-st.Chain.MaxReportBlocks, st.Chain.MaxReportBlocks
	}
	if track == genesis.TrackArena {
		return setup.ArenaTask(st.Arena.Categories[i%len(st.Arena.Categories)].Name,
			st.Arena.Difficulties[i%len(st.Arena.Difficulties)].Name, setup.Windows{Submission: sb, Report: rb}), true
	}
	return setup.WorkflowTask(setup.Windows{Submission: sb, Report: rb}), true
}

// truthShot is one truth the adversary sends, and the refusal it is aimed at (0: accepted
// until the validator holds max_prediction_ahead open rounds, then 46).
type truthShot struct {
	chain, block uint64
	timestamp    int64
	aim          uint32
}

func (s truthShot) msg() *subnetv1.Msg { return client.Truth(s.chain, s.block, "1.000", s.timestamp) }

// unanchoredBase is where the adversary's rounds on a chain nobody anchored start: such a
// chain has no window, so only its open-round cap (46) bounds the validator.
const unanchoredBase = 1_000_000

// truthFlood plans one truth flood. On the anchored chain (GasChains[0], whose last closed
// block is closed or closed+1: the honest generator may be closing the next one): blocks
// past the window (44), blocks in its upper half stamped an hour past the drift limit (45,
// blocks the adversary never votes on in time, so never a duplicate), and blocks in its lower
// half stamped within the drift (accepted, then 35). On every other chain, which nobody
// anchors: max_prediction_ahead + 2 blocks in time (the last ones 46) and a far-future one (45).
func truthFlood(st genesis.AppState, closed uint64, now int64) []truthShot {
	c := st.Chain
	if !st.HasTrack(genesis.TrackGas) || len(c.GasChains) == 0 {
		return nil
	}
	ahead := c.MaxPredictionAhead
	inTime, future := now+c.MaxTruthDriftSeconds/2, now+c.MaxTruthDriftSeconds+3600
	var shots []truthShot
	anchored := c.GasChains[0]
	for _, far := range []uint64{2, 11, 101, 1001, 1_000_001} {
		shots = append(shots, truthShot{anchored, closed + ahead + far, inTime, wire.CodeTruthTooFar})
	}
	// In the window whether closed or closed+1 is the last closed block: (closed+1, closed+ahead].
	half := closed + 1 + ahead/2
	for b := half + 1; b <= closed+ahead; b++ {
		shots = append(shots, truthShot{anchored, b, future, wire.CodeTruthTimeFuture})
	}
	for b := closed + 2; b <= half; b++ {
		shots = append(shots, truthShot{anchored, b, inTime, 0})
	}
	for _, ch := range c.GasChains[1:] {
		shots = append(shots, truthShot{ch, unanchoredBase + 2*ahead + 2, future, wire.CodeTruthTimeFuture})
		for b := uint64(1); b <= ahead+2; b++ {
			shots = append(shots, truthShot{ch, unanchoredBase + b, inTime, 0})
		}
	}
	return shots
}

// minority checks that the validator whose report key is pub holds less than 1/3 of the
// power: the adversary mode models a minority, which the app must never let block anything
// (a third or more can stall any BFT chain by staying silent).
func minority(st genesis.AppState, pub ed25519.PublicKey) (power, total int64, err error) {
	want := hex.EncodeToString(pub)
	found := false
	for _, v := range st.Validators {
		total += v.Power
		if v.ReportKey == want {
			power, found = v.Power, true
		}
	}
	switch {
	case !found:
		return 0, total, fmt.Errorf("report key %s is not a genesis validator's", want)
	case 3*power >= total:
		return power, total, fmt.Errorf("the validator holds %d of %d power, not less than 1/3", power, total)
	}
	return power, total, nil
}
