package window

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

// The properties below compare each update against a deliberately naive
// recomputation from the full history of inputs. The random sequences are
// seeded, so a failure is reproducible.

func randScore(r *rand.Rand) decimal.Decimal {
	return decimal.New(r.Int64N(1_000_001), -6) // 0.000000 … 1.000000
}

func TestPropertyWindowMatchesFullHistory(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 200; round++ {
		p := DefaultParams()
		p.WindowSize = 1 + r.IntN(20)
		p.WarmupTasks = r.IntN(p.WindowSize + 1)
		var w MinerWindow
		var all []decimal.Decimal
		for i := 0; i < 60; i++ {
			s := randScore(r)
			next, err := w.Push(p, s)
			if err != nil {
				t.Fatal(err)
			}
			w, all = next, append(all, s)
			naiveMean, naiveAgg := naiveWindow(all, p)
			if !w.Mean().Equal(naiveMean) || !w.Aggregate(p).Equal(naiveAgg) {
				t.Fatalf("round %d push %d: mean %s agg %s, naive %s %s", round, i, w.Mean(), w.Aggregate(p), naiveMean, naiveAgg)
			}
		}
	}
}

// naiveWindow recomputes the mean and aggregate from every score ever pushed.
func naiveWindow(all []decimal.Decimal, p Params) (decimal.Decimal, decimal.Decimal) {
	from := max(0, len(all)-p.WindowSize)
	sum := decimal.Zero
	for _, s := range all[from:] {
		sum = sum.Add(s)
	}
	mean := sum.DivRound(decimal.NewFromInt(int64(len(all)-from)), 18)
	if p.WarmupTasks == 0 || len(all) >= p.WarmupTasks {
		return mean, mean
	}
	return mean, mean.Mul(decimal.NewFromInt(int64(len(all)))).DivRound(decimal.NewFromInt(int64(p.WarmupTasks)), 18)
}

func TestPropertyBaselineMatchesFullHistory(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	fallback := scoring.DefaultArenaBaseline()
	for round := 0; round < 100; round++ {
		p := DefaultParams()
		p.BaselineK = 5 + r.IntN(30)
		var b Baseline
		var all []scoring.ArenaSubmission
		for block := 0; block < 20; block++ {
			batch := make([]scoring.ArenaSubmission, r.IntN(8))
			for i := range batch {
				batch[i] = sub(r.Int64N(10_000))
			}
			next, err := b.Add(p, batch)
			if err != nil {
				t.Fatal(err)
			}
			b, all = next, append(all, batch...)
			tail := all[max(0, len(all)-p.BaselineK):]
			if !slices.Equal(tokensOf(b), tokensOf(Baseline{Recent: tail})) {
				t.Fatalf("round %d block %d: kept %v, want the last %d of %v", round, block, tokensOf(b), p.BaselineK, tokensOf(Baseline{Recent: all}))
			}
			got, want := b.Stats(fallback), scoring.ComputeBaseline(tail, fallback)
			if got.SubmissionCount != want.SubmissionCount || !got.MedianTokens.Equal(want.MedianTokens) || !got.Q25Tokens.Equal(want.Q25Tokens) {
				t.Fatalf("round %d block %d: stats differ from the naive baseline", round, block)
			}
		}
	}
}

func TestPropertyGasAgentMatchesFullHistory(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	gp := scoring.DefaultGasParams()
	gp.MemorySize, gp.HorizonSeconds = 4, 30
	var a GasAgent
	var slots []scoring.GasSlot
	var points []scoring.GasHistoryPoint
	now := int64(0)
	for i := 0; i < 500; i++ {
		now += r.Int64N(15)
		var p *decimal.Decimal
		if r.IntN(3) > 0 || i == 0 {
			v := decimal.New(90+r.Int64N(20), 0)
			p = &v
		}
		next, res, err := a.Close(gp, now, p, decimal.NewFromInt(100))
		if err != nil {
			t.Fatal(err)
		}
		a = next
		slots = append(slots, a.Memory[len(a.Memory)-1])
		if len(slots) < gp.MemorySize {
			if res != nil {
				t.Fatalf("close %d: a score before the memory filled", i)
			}
			continue
		}
		perf := scoring.MemoryPerformance(slots[len(slots)-gp.MemorySize:])
		points = append(points, scoring.GasHistoryPoint{Time: now, InclusionRate: perf.InclusionRate, AvgOverpayment: perf.AvgOverpayment})
		var want []scoring.GasHistoryPoint
		for _, pt := range points {
			if now-pt.Time <= gp.HorizonSeconds {
				want = append(want, pt)
			}
		}
		if res == nil || len(a.History) != len(want) || res.Points != len(want) {
			t.Fatalf("close %d: %d points kept, naive %d", i, len(a.History), len(want))
		}
		for k := range want {
			if a.History[k].Time != want[k].Time || !a.History[k].InclusionRate.Equal(want[k].InclusionRate) {
				t.Fatalf("close %d: history differs from the naive one at %d", i, k)
			}
		}
	}
}

// TestPropertyActivityMatchesPushes: after pushes at random non-decreasing
// heights, Active(LastHeight, h, c) holds exactly when some push was at a
// height in [h − c, h] (the naive rule over every push), and the arena
// warm-up is the naive one over ArenaWarmupTasks.
func TestPropertyActivityMatchesPushes(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for round := 0; round < 200; round++ {
		p := DefaultParams()
		p.WindowSize = 1 + r.IntN(20)
		p.ArenaWarmupTasks = r.IntN(p.WindowSize + 1)
		var w MinerWindow
		var heights []int64
		var all []decimal.Decimal
		h := int64(1)
		for i := 0; i < 30; i++ {
			h += r.Int64N(50)
			s := randScore(r)
			next, err := w.PushAt(p, h, s)
			if err != nil {
				t.Fatal(err)
			}
			w, heights, all = next, append(heights, h), append(all, s)
			q, cutoff := h+r.Int64N(100), 1+r.Int64N(100)
			naive := false
			for _, ph := range heights {
				naive = naive || (ph >= q-cutoff && ph <= q)
			}
			if Active(w.LastHeight, q, cutoff) != naive {
				t.Fatalf("round %d push %d: Active(%d, %d, %d) = %t, naive %t", round, i, w.LastHeight, q, cutoff, !naive, naive)
			}
			np := p
			np.WarmupTasks = p.ArenaWarmupTasks
			if _, agg := naiveWindow(all, np); !w.Warmed(p.ArenaWarmupTasks).Equal(agg) {
				t.Fatalf("round %d push %d: arena aggregate %s, naive %s", round, i, w.Warmed(p.ArenaWarmupTasks), agg)
			}
		}
	}
}

// TestPropertyStaleMissNeverIncludesSilence: under the default policy only a
// fresh prediction can be included, so at every close the inclusion rate is
// at most the liveliness and every silent slot is (not included, 0).
func TestPropertyStaleMissNeverIncludesSilence(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	gp := scoring.DefaultGasParams()
	gp.MemorySize = 5
	for round := 0; round < 100; round++ {
		var a GasAgent
		for i := int64(0); i < 40; i++ {
			var pred *decimal.Decimal
			if r.IntN(3) > 0 {
				v := decimal.New(1+r.Int64N(200), 0)
				pred = &v
			}
			next, res, err := a.Close(gp, i*12, pred, decimal.New(50+r.Int64N(100), 0))
			if err != nil {
				t.Fatal(err)
			}
			a = next
			for _, s := range a.Memory {
				if !s.Fresh && (s.Included || !s.Overpayment.IsZero()) {
					t.Fatalf("round %d close %d: silent slot %+v", round, i, s)
				}
			}
			if res != nil && a.History[len(a.History)-1].InclusionRate.Cmp(res.Liveliness) > 0 {
				t.Fatalf("round %d close %d: inclusion %s above liveliness %s", round, i, a.History[len(a.History)-1].InclusionRate, res.Liveliness)
			}
		}
	}
}
