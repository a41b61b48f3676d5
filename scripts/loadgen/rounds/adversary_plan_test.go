package rounds

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
)

func TestStackDeadline(t *testing.T) {
	const least = 12 // minSpan and a reveal window of 10 blocks
	for _, c := range []struct {
		cur, next, lead, want int64
	}{
		{0, 10, 40, 50},  // no deadline yet: next + lead
		{50, 10, 40, 50}, // far ahead: stack on it
		{50, 37, 40, 50}, // 13 blocks left (> least): still
		{50, 38, 40, 78}, // 12 left: a task might not land in time for it; the next one
		{50, 60, 40, 100},
		{0, 10, 1, 22}, // a lead below least is raised to it
	} {
		if got := stackDeadline(c.cur, c.next, c.lead, least); got != c.want {
			t.Errorf("stackDeadline(%d, %d, %d, %d) = %d, want %d", c.cur, c.next, c.lead, least, got, c.want)
		}
	}
	st := genesis.DefaultGenesis()
	if got := leastSpan(st); got != minSpan+10 {
		t.Errorf("leastSpan of the default genesis (reveal_blocks 10) = %d", got)
	}
}

// TestStackedTask: every task of a flood, included at next, has its report deadline
// (next + submission_blocks + reveal_blocks + report_blocks, as app/tasks computes it) on the
// stacked one, with windows the chain accepts, workflow and arena in turn, each track with its
// own reveal window.
func TestStackedTask(t *testing.T) {
	st := genesis.DefaultGenesis()
	for i := range st.Tracks {
		if st.Tracks[i].Name == genesis.TrackArena {
			st.Tracks[i].RevealBlocks = 7
		}
	}
	cp := st.Chain
	reveal := map[string]int64{genesis.TrackWorkflow: 10, genesis.TrackArena: 7}
	// span: the blocks from next to the deadline besides the task's reveal window
	for _, c := range []struct {
		next, span int64
		ok         bool
	}{
		{100, 2, true}, {100, 40, true}, {100, 1, false}, {100, 0, false},
		{100, cp.MaxSubmissionBlocks + cp.MaxReportBlocks, true},
		{100, 1 + cp.MaxSubmissionBlocks + cp.MaxReportBlocks, false},
		{100, cp.MaxReportBlocks + 3, true},
	} {
		for i := 0; i < 2; i++ {
			track := genesis.TrackWorkflow
			if i%2 == 1 {
				track = genesis.TrackArena
			}
			deadline := c.next + reveal[track] + c.span
			m, ok := stackedTask(st, i, c.next, deadline)
			if ok != c.ok {
				t.Fatalf("%s: next %d deadline %d: ok %v, want %v", track, c.next, deadline, ok, c.ok)
			}
			if !ok {
				continue
			}
			var sb, rb int64
			if w := m.GetPostTask().GetWorkflow(); w != nil {
				sb, rb = w.SubmissionBlocks, w.ReportBlocks
				if track != genesis.TrackWorkflow {
					t.Errorf("task %d is a workflow task, want arena", i)
				}
			} else {
				a := m.GetPostTask().GetArena()
				sb, rb = a.SubmissionBlocks, a.ReportBlocks
				if track != genesis.TrackArena || a.Category != st.Arena.Categories[i%len(st.Arena.Categories)].Name {
					t.Errorf("task %d: arena task %+v", i, a)
				}
			}
			if c.next+sb+reveal[track]+rb != deadline || sb < 1 || rb < 1 || sb > cp.MaxSubmissionBlocks || rb > cp.MaxReportBlocks {
				t.Errorf("next %d deadline %d: submission_blocks %d report_blocks %d", c.next, deadline, sb, rb)
			}
		}
	}
}

// naiveTruth is checkTruth's order of refusals (app/gas/check.go) over a toy chain, written
// out plainly: closed (33), too far (44), duplicate (35), future (45), open rounds (46).
type naiveTruth struct {
	closed   map[uint64]uint64 // chain → last closed block, for anchored chains
	voted    map[[2]uint64]bool
	open     map[uint64]uint64
	ahead    uint64
	maxStamp int64
}

func (n *naiveTruth) code(s truthShot) uint32 {
	last, anchored := n.closed[s.chain]
	switch {
	case anchored && s.block <= last:
		return wire.CodeEVMBlockClosed
	case anchored && s.block-last > n.ahead:
		return wire.CodeTruthTooFar
	case n.voted[[2]uint64{s.chain, s.block}]:
		return wire.CodeDuplicateTruth
	case s.timestamp > n.maxStamp:
		return wire.CodeTruthTimeFuture
	case n.open[s.chain] >= n.ahead:
		return wire.CodeTooManyOpenRounds
	}
	n.voted[[2]uint64{s.chain, s.block}] = true
	n.open[s.chain]++
	return wire.CodeOK
}

// TestTruthFlood runs one flood through the naive rules, with the anchored chain's last
// closed block at the generator's hint and one past it (the round it is closing): every shot
// gets the refusal it aims at (an in-time one: accepted or, past the cap, 46), and a flood
// reaches each of 44, 45 and 46.
func TestTruthFlood(t *testing.T) {
	st := genesis.DefaultGenesis()
	const hint, now = 5000, 1_700_000_000
	for _, last := range []uint64{hint, hint + 1} {
		n := &naiveTruth{closed: map[uint64]uint64{st.Chain.GasChains[0]: last}, voted: map[[2]uint64]bool{}, open: map[uint64]uint64{},
			ahead: st.Chain.MaxPredictionAhead, maxStamp: now + st.Chain.MaxTruthDriftSeconds}
		seen := map[uint32]int{}
		for _, s := range truthFlood(st, hint, now) {
			got := n.code(s)
			seen[got]++
			if got != s.aim && (s.aim != 0 || got != wire.CodeTooManyOpenRounds) {
				t.Errorf("last closed %d: truth %+v got code %d, aimed at %d", last, s, got, s.aim)
			}
		}
		for _, c := range []uint32{wire.CodeOK, wire.CodeTruthTooFar, wire.CodeTruthTimeFuture, wire.CodeTooManyOpenRounds} {
			if seen[c] == 0 {
				t.Errorf("last closed %d: no truth of the flood gets code %d (%v)", last, c, seen)
			}
		}
	}
	off := genesis.DefaultGenesis()
	off.Chain.GasChains = nil
	if shots := truthFlood(off, hint, now); shots != nil {
		t.Errorf("no gas chain: %d truths planned", len(shots))
	}
}

func TestMinority(t *testing.T) {
	keys := make([]ed25519.PrivateKey, 4)
	st := genesis.DefaultGenesis()
	for i := range keys {
		seed := sha256.Sum256([]byte{byte(i)})
		keys[i] = ed25519.NewKeyFromSeed(seed[:])
		st.Validators = append(st.Validators, genesis.Validator{Power: 10, ReportKey: hex.EncodeToString(keys[i].Public().(ed25519.PublicKey))})
	}
	pub := func(i int) ed25519.PublicKey { return keys[i].Public().(ed25519.PublicKey) }
	if p, total, err := minority(st, pub(3)); err != nil || p != 10 || total != 40 {
		t.Fatalf("1 of 4 equal: %d/%d %v", p, total, err)
	}
	three := st
	three.Validators = st.Validators[:3]
	if _, _, err := minority(three, pub(0)); err == nil || !strings.Contains(err.Error(), "not less than 1/3") {
		t.Fatalf("1 of 3 equal (exactly 1/3): %v", err)
	}
	if _, _, err := minority(three, pub(3)); err == nil || !strings.Contains(err.Error(), "not a genesis validator") {
		t.Fatalf("unknown key: %v", err)
	}
}
