package simsubnet

import (
	"bytes"
	"context"
	"maps"
	"os"
	"testing"

	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/internal/testmain"
)

func TestMain(m *testing.M) { testmain.Run(m) }

// reducedRun runs ReducedConfig in mode m in a fresh directory.
func reducedRun(t *testing.T, m Mode) *Result {
	t.Helper()
	cfg := ReducedConfig()
	cfg.Mode = m
	cfg.Dir = t.TempDir()
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestReducedRun runs the reduced subnet twice in each mode: every app
// hash (and so the score digest) must be the same, each run must keep the
// invariants of checkRun, and the modes must agree as sameOutcomes says.
func TestReducedRun(t *testing.T) {
	var runs []*Result
	for _, m := range Modes {
		a, b := reducedRun(t, m), reducedRun(t, m)
		if len(a.AppHashes) != len(b.AppHashes) {
			t.Fatalf("mode %s: %d and %d heights", m, len(a.AppHashes), len(b.AppHashes))
		}
		for h := range a.AppHashes {
			if !bytes.Equal(a.AppHashes[h], b.AppHashes[h]) {
				t.Fatalf("mode %s: height %d: app hash %X, then %X", m, h, a.AppHashes[h], b.AppHashes[h])
			}
		}
		if a.Outcomes.ScoreDigest == "" || a.Outcomes.ScoreDigest != b.Outcomes.ScoreDigest {
			t.Errorf("mode %s: score digest %q, then %q", m, a.Outcomes.ScoreDigest, b.Outcomes.ScoreDigest)
		}
		checkRun(t, a)
		runs = append(runs, a)
	}
	sameOutcomes(t, runs[0], runs[1])
	sameSubmissions(t, runs[0], runs[2])
	if os.Getenv("SIMSUBNET_PRINT") != "" {
		if err := WriteTable(os.Stdout, runs); err != nil {
			t.Fatal(err)
		}
	}
}

// sameOutcomes compares mode off with mode batch. Each report is due at
// the same height in both and, at this size, no block fills, so every
// report sent before its submission settles is in that height's block in
// both: the same submissions settle with the same status at the same
// height. Their scores need not be equal: within the settling height the
// reports apply in another order (a batch's entries together), so another
// set of them may be in when the quorum passes 2/3 — the differences are
// logged, not refused.
func sameOutcomes(t *testing.T, off, batch *Result) {
	t.Helper()
	a, b := off.Outcomes.Submissions, batch.Outcomes.Submissions
	if len(a) != len(b) {
		t.Fatalf("%d submissions in mode off, %d in mode batch", len(a), len(b))
	}
	differ := 0
	for i := range a {
		x, y := a[i], b[i]
		if x.ID != y.ID || x.Track != y.Track || x.Status != y.Status || x.Settled != y.Settled {
			t.Errorf("submission %d: off %+v, batch %+v", x.ID, x, y)
		}
		if x.Score != y.Score {
			differ++
		}
	}
	t.Logf("%d of %d submissions scored otherwise in mode batch; score digests %s (off) and %s (batch)",
		differ, len(a), short(off.Outcomes.ScoreDigest), short(batch.Outcomes.ScoreDigest))
}

// sameSubmissions compares mode off with mode all, where the gas agents
// commit in runs: the submission ids differ, and with them each report's
// height (a validator's measurement time is drawn per submission id), so
// submissions settle at other heights; but every miner commits to every
// task in both, so each track has as many submissions.
func sameSubmissions(t *testing.T, off, all *Result) {
	t.Helper()
	count := func(r *Result) map[string]int {
		m := map[string]int{}
		for _, s := range r.Outcomes.Submissions {
			m[s.Track]++
		}
		return m
	}
	if a, b := count(off), count(all); !maps.Equal(a, b) {
		t.Errorf("submissions by track: off %v, all %v", a, b)
	}
}

// checkRun: every task submission is scored or has a stated outcome (the
// honest majority reports each in time, so none may expire, be contested
// or be left without an event), gas predictions were counted and each
// close counted exactly the reveals of its EVM block, epochs and retention
// ran, and nothing was refused but reports and truths after their quorum.
func checkRun(t *testing.T, r *Result) {
	t.Helper()
	o := r.Outcomes
	for _, track := range []string{genesis.TrackWorkflow, genesis.TrackArena} {
		got := o.Tasks[track]
		if got["scored"] == 0 {
			t.Errorf("%s: nothing scored: %v", track, got)
		}
		for st := range got {
			if st != "scored" && st != "open" {
				t.Errorf("%s: %d submissions %s: want every one scored or still open at the end", track, got[st], st)
			}
		}
	}
	// a batch of both task tracks' entries counts under tasksLabel
	var commits, outcomes int
	var rep, cr TxCount
	for _, track := range []string{genesis.TrackWorkflow, genesis.TrackArena, tasksLabel} {
		c := r.Stats.Count(track, KindCommit)
		commits += c.Entries.Included
		outcomes += o.Tasks[track]["scored"] + o.Tasks[track]["open"]
		x := r.Stats.Count(track, KindReport)
		rep.Included, rep.Entries.Included = rep.Included+x.Included, rep.Entries.Included+x.Entries.Included
		cr.Included, cr.Entries.Included = cr.Included+c.Included, cr.Entries.Included+c.Entries.Included
	}
	if commits != outcomes {
		t.Errorf("%d task commits in blocks, %d outcomes", commits, outcomes)
	}
	if o.GasCounted == 0 || o.GasMismatch != 0 || o.GasCounted > o.GasRevealed || o.GasRevealed > o.GasCommitted {
		t.Errorf("gas: %d counted, %d revealed, %d committed, %d closes counting other than the reveals", o.GasCounted, o.GasRevealed, o.GasCommitted, o.GasMismatch)
	}
	if want := int(r.Config.Blocks / r.Config.EpochBlocks); o.Epochs != want {
		t.Errorf("%d epochs, want %d", o.Epochs, want)
	}
	if o.Retirements == 0 {
		t.Error("retention never ran")
	}
	if other := otherRefusals(r.Stats); other != "none" {
		t.Errorf("unexpected refusals: %s", other)
	}
	if batched := rep.Included < rep.Entries.Included; batched != (r.Config.Mode != ModeOff) {
		t.Errorf("mode %s, reports: %d txs, %d entries", r.Config.Mode, rep.Included, rep.Entries.Included)
	}
	gc := r.Stats.Count(genesis.TrackGas, KindCommit)
	gr := r.Stats.Count(genesis.TrackGas, KindReveal)
	for what, c := range map[string]TxCount{"task commits": cr, "gas commits": gc, "gas reveals": gr} {
		if batched := c.Included < c.Entries.Included; batched != (r.Config.Mode == ModeAll) {
			t.Errorf("mode %s, %s: %d txs, %d entries", r.Config.Mode, what, c.Included, c.Entries.Included)
		}
	}
	if len(r.Stats.Samples) == 0 || r.Stats.Samples[0].Keys == 0 {
		t.Errorf("state samples: %+v", r.Stats.Samples)
	}
}

// TestPowers: the Zipf stake at V = 64 puts 21.1% on the heaviest, which
// is the adversary (below 1/3), and 13 validators are the first to pass
// 2/3; at V = 8 the heaviest holds more than 1/3, so the adversary is the
// second.
func TestPowers(t *testing.T) {
	p := Powers(64)
	var total int64
	for _, x := range p {
		total += x
	}
	if a := Adversary(p); a != 0 || 1000*p[0]/total != 210 {
		t.Errorf("V=64: adversary %d with %d‰", a, 1000*p[0]/total)
	}
	var sum int64
	n := 0
	for 3*sum <= 2*total {
		sum += p[n]
		n++
	}
	if n != 13 {
		t.Errorf("V=64: %d validators pass 2/3, want 13", n)
	}
	if a := Adversary(Powers(8)); a != 1 {
		t.Errorf("V=8: adversary %d, want 1", a)
	}
}

func TestConfigValidate(t *testing.T) {
	c := ReducedConfig()
	c.Dir = "x"
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	c.Mode = "on"
	if err := c.Validate(); err == nil {
		t.Error("mode on: want an error")
	}
	if ms, err := ParseModes("off, batch"); err != nil || len(ms) != 2 || ms[1] != ModeBatch {
		t.Errorf("ParseModes(off, batch): %v, %v", ms, err)
	}
	if _, err := ParseModes("off,on"); err == nil {
		t.Error("ParseModes(off,on): want an error")
	}
}
