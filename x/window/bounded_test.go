package window

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

// TestBoundedState drives 1,000,000 updates through one miner's window and
// 1,000,000 submissions through one task's baseline (in blocks of 100), and
// checks that each retains exactly N and K entries, and that the window's
// content is the last N scores pushed.
func TestBoundedState(t *testing.T) {
	const updates = 1_000_000
	p := DefaultParams() // N = 100, K = 1000
	scores := [3]decimal.Decimal{decimal.RequireFromString("0.25"), decimal.RequireFromString("0.5"), scoring.One}
	var w MinerWindow
	var err error
	for i := 0; i < updates; i++ {
		if w, err = w.Push(p, scores[i%3]); err != nil {
			t.Fatal(err)
		}
	}
	if len(w.Scores) != p.WindowSize || cap(w.Scores) != p.WindowSize || w.TasksSeen != updates {
		t.Fatalf("window: %d entries (cap %d), %d seen", len(w.Scores), cap(w.Scores), w.TasksSeen)
	}
	// The last score pushed is index 999,999 ≡ 0 (mod 3): 0.25; the window
	// holds 34 × 0.25 + 33 × 0.5 + 33 × 1 = 58 over 100 entries.
	assertDec(t, "window mean", w.Mean(), "0.58")

	var b Baseline
	batch := make([]scoring.ArenaSubmission, 100)
	for blk := 0; blk < updates/len(batch); blk++ {
		for i := range batch {
			batch[i] = sub(int64(blk*len(batch) + i))
		}
		if b, err = b.Add(p, batch); err != nil {
			t.Fatal(err)
		}
	}
	if len(b.Recent) != p.BaselineK || cap(b.Recent) != p.BaselineK {
		t.Fatalf("baseline: %d entries (cap %d), want %d", len(b.Recent), cap(b.Recent), p.BaselineK)
	}
	if first, last := b.Recent[0].TotalTokens, b.Recent[p.BaselineK-1].TotalTokens; first != updates-1000 || last != updates-1 {
		t.Fatalf("baseline keeps tokens %d…%d, want %d…%d", first, last, updates-1000, updates-1)
	}
}

// TestBoundedGasHistory closes 20,000 windows, one per second of block time:
// the memory stays at its size and the history at the horizon's 61 points
// with a cap above that, or at the default cap of 16 with Close.
func TestBoundedGasHistory(t *testing.T) {
	gp := scoring.DefaultGasParams() // memory 10, horizon 60 s
	price := decimal.NewFromInt(100)
	var a, c GasAgent
	var err error
	for i := int64(0); i < 20_000; i++ {
		if a, _, err = a.CloseCapped(gp, 100, i, &price, price); err != nil {
			t.Fatal(err)
		}
		if c, _, err = c.Close(gp, i, &price, price); err != nil {
			t.Fatal(err)
		}
	}
	if len(a.Memory) != gp.MemorySize || len(a.History) != int(gp.HorizonSeconds)+1 {
		t.Fatalf("memory %d, history %d; want %d, %d", len(a.Memory), len(a.History), gp.MemorySize, gp.HorizonSeconds+1)
	}
	if len(c.History) != DefaultGasHistoryMax || c.History[0].Time != 20_000-DefaultGasHistoryMax {
		t.Fatalf("Close kept %d points from t=%d, want the newest %d", len(c.History), c.History[0].Time, DefaultGasHistoryMax)
	}
}

// TestBoundedGasHistorySameTime closes 5,000 windows at one block time (a
// sub-second EVM chain): the horizon prunes nothing, the cap keeps the
// newest points, and Close applies DefaultGasHistoryMax.
func TestBoundedGasHistorySameTime(t *testing.T) {
	gp := scoring.DefaultGasParams()
	price := decimal.NewFromInt(100)
	for _, cap := range []int{1, 7, DefaultGasHistoryMax} {
		var a GasAgent
		var err error
		for i := int64(0); i < 5_000; i++ {
			if cap == DefaultGasHistoryMax {
				a, _, err = a.Close(gp, 1_000, &price, price)
			} else {
				a, _, err = a.CloseCapped(gp, cap, 1_000, &price, price)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if len(a.History) != cap || a.Closed != 5_000 {
			t.Fatalf("cap %d: history %d after %d closes, want %d", cap, len(a.History), a.Closed, cap)
		}
	}
}
