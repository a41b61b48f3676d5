package window

import (
	"errors"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

func smallGas() scoring.GasParams {
	gp := scoring.DefaultGasParams()
	gp.MemorySize, gp.HorizonSeconds = 3, 10
	return gp
}

func pred(t *testing.T, s string) *decimal.Decimal {
	t.Helper()
	v := d(t, s)
	return &v
}

// closeAll applies closes in order and returns the agent and the last result.
func closeAll(t *testing.T, gp scoring.GasParams, a GasAgent, steps []gasStep) (GasAgent, *scoring.GasResult) {
	t.Helper()
	var res *scoring.GasResult
	for _, s := range steps {
		var p *decimal.Decimal
		if s.pred != "" {
			p = pred(t, s.pred)
		}
		next, r, err := a.Close(gp, s.time, p, d(t, s.min))
		if err != nil {
			t.Fatalf("close at %d: %v", s.time, err)
		}
		a, res = next, r
	}
	return a, res
}

type gasStep struct {
	time      int64
	pred, min string
}

func TestGasAgentFillsThenScores(t *testing.T) {
	gp := smallGas()
	gp.StalePrediction = scoring.StaleCarry
	a, res := closeAll(t, gp, GasAgent{}, []gasStep{{0, "10", "10"}, {1, "12", "10"}})
	if res != nil || len(a.History) != 0 || len(a.Memory) != 2 {
		t.Fatalf("before the memory fills: res %v, %d points, %d slots", res, len(a.History), len(a.Memory))
	}
	// No fresh prediction: under "carry" judged on 12 against 10, not fresh.
	a, res = closeAll(t, gp, a, []gasStep{{2, "", "10"}})
	if res == nil {
		t.Fatal("a full memory must give a score")
	}
	last := a.Memory[2]
	if !last.Included || last.Fresh {
		t.Fatalf("stale slot = %+v, want included and not fresh", last)
	}
	assertDec(t, "stale overpayment", last.Overpayment, "0.2")
	assertDec(t, "liveliness", res.Liveliness, "0.666666666666666667")
	assertDec(t, "history avg overpayment", a.History[0].AvgOverpayment, "0.133333333333333333")
	assertDec(t, "history inclusion", a.History[0].InclusionRate, "1")
	if res.Points != 1 || a.Closed != 3 || a.LastTime != 2 {
		t.Fatalf("points %d, closed %d, last time %d", res.Points, a.Closed, a.LastTime)
	}
	// The fourth close pushes the first slot out.
	a, _ = closeAll(t, gp, a, []gasStep{{3, "9", "10"}})
	if len(a.Memory) != 3 || !a.Memory[0].Overpayment.Equal(d(t, "0.2")) || a.Memory[2].Included {
		t.Fatalf("memory after the oldest went out = %+v", a.Memory)
	}
	assertDec(t, "inclusion after a miss", a.History[1].InclusionRate, "0.666666666666666667")
}

func TestGasAgentHorizonIsInclusive(t *testing.T) {
	gp := smallGas() // horizon 10
	full, _ := closeAll(t, gp, GasAgent{}, []gasStep{{0, "10", "10"}, {1, "10", "10"}, {2, "10", "10"}})
	kept, res := closeAll(t, gp, full, []gasStep{{12, "10", "10"}})
	if len(kept.History) != 2 || res.Points != 2 {
		t.Fatalf("a point exactly 10 s old must stay: %d points", len(kept.History))
	}
	dropped, res := closeAll(t, gp, full, []gasStep{{13, "10", "10"}})
	if len(dropped.History) != 1 || dropped.History[0].Time != 13 || res.Points != 1 {
		t.Fatalf("a point 11 s old must go: %+v", dropped.History)
	}
	if len(full.History) != 1 {
		t.Fatal("Close modified the receiver's history")
	}
}

func TestGasAgentNeverPredicted(t *testing.T) {
	a, res, err := GasAgent{}.Close(smallGas(), 5, nil, d(t, "10"))
	if err != nil || res != nil || a.Closed != 0 || len(a.Memory) != 0 || a.HasLast {
		t.Fatalf("an agent without any prediction must stay empty: %+v %v %v", a, res, err)
	}
}

func TestGasAgentErrors(t *testing.T) {
	gp := smallGas()
	a, _ := closeAll(t, gp, GasAgent{}, []gasStep{{10, "10", "10"}})
	if _, _, err := a.Close(gp, 9, pred(t, "10"), d(t, "10")); !errors.Is(err, ErrTimeBackwards) {
		t.Errorf("earlier block time: %v, want ErrTimeBackwards", err)
	}
	if _, _, err := a.Close(gp, 10, pred(t, "10"), d(t, "10")); err != nil {
		t.Errorf("equal block time: %v, want nil", err)
	}
	if _, _, err := a.Close(gp, 11, pred(t, "10"), d(t, "0")); !errors.Is(err, scoring.ErrInvalidInput) {
		t.Errorf("zero minimum price: %v, want scoring.ErrInvalidInput", err)
	}
	if _, _, err := a.Close(gp, 11, pred(t, "0.0000000000000000001"), d(t, "1")); !errors.Is(err, ErrInvalidInput) {
		t.Errorf("19-place prediction: %v, want ErrInvalidInput", err)
	}
	bad := gp
	bad.MemorySize = 0
	if _, _, err := a.Close(bad, 11, pred(t, "10"), d(t, "10")); err == nil {
		t.Error("memory size 0 accepted")
	}
	if a.Closed != 1 || len(a.Memory) != 1 {
		t.Fatalf("a failed close changed the agent: %+v", a)
	}
}

func TestGasAgentMemoryShrinks(t *testing.T) {
	gp := smallGas()
	a, _ := closeAll(t, gp, GasAgent{}, []gasStep{{0, "10", "10"}, {1, "10", "10"}, {2, "10", "10"}})
	gp.MemorySize = 2
	a, res := closeAll(t, gp, a, []gasStep{{3, "10", "10"}})
	if len(a.Memory) != 2 || res == nil {
		t.Fatalf("memory = %d slots after MemorySize 2", len(a.Memory))
	}
}

// TestGasAgentStaleMiss: under the default policy a window without a fresh
// prediction is a missed slot whatever the last prediction was, the last
// prediction stays for nothing but the record, and a fresh one is judged as
// under "carry". The same closes under "carry" differ only in the silent slots.
func TestGasAgentStaleMiss(t *testing.T) {
	miss, carry := smallGas(), smallGas()
	carry.StalePrediction = scoring.StaleCarry
	steps := []gasStep{{0, "1000000", "10"}, {1, "", "10"}, {2, "", "10"}, {3, "11", "10"}}
	a, res := closeAll(t, miss, GasAgent{}, steps)
	b, _ := closeAll(t, carry, GasAgent{}, steps)
	for i, s := range a.Memory {
		silent := i < 2
		if silent != (!s.Fresh && !s.Included && s.Overpayment.IsZero()) {
			t.Errorf("miss: slot %d = %+v", i, s)
		}
		if silent != (!b.Memory[i].Fresh && b.Memory[i].Included) {
			t.Errorf("carry: slot %d = %+v", i, b.Memory[i])
		}
	}
	if !a.HasLast || !a.Last.Equal(d(t, "11")) {
		t.Errorf("last = %s", a.Last)
	}
	assertDec(t, "inclusion under miss", a.History[1].InclusionRate, "0.333333333333333333")
	assertDec(t, "inclusion under carry", b.History[1].InclusionRate, "1")
	assertDec(t, "liveliness", res.Liveliness, "0.333333333333333333")
	// An agent that never predicted is still not judged.
	if n, r, err := (GasAgent{}).Close(miss, 5, nil, d(t, "10")); err != nil || r != nil || n.Closed != 0 {
		t.Errorf("never predicted: %+v %v %v", n, r, err)
	}
	// An unknown policy is refused before anything changes.
	bad := smallGas()
	bad.StalePrediction = "skip"
	if _, _, err := a.Close(bad, 4, nil, d(t, "10")); !errors.Is(err, scoring.ErrInvalidInput) {
		t.Errorf("unknown policy: %v", err)
	}
}

// TestActive pins the activity rule at its boundaries.
func TestActive(t *testing.T) {
	tests := []struct {
		last, height, cutoff int64
		want                 bool
	}{
		{0, 1, 1_000_000, false}, // no scored work yet
		{1, 1, 10, true},
		{10, 110, 100, true},  // exactly cutoff blocks ago
		{10, 111, 100, false}, // one more
		{50, 40, 100, false},  // after the asked height (a query at an older height)
	}
	for _, tc := range tests {
		if got := Active(tc.last, tc.height, tc.cutoff); got != tc.want {
			t.Errorf("Active(%d, %d, %d) = %t", tc.last, tc.height, tc.cutoff, got)
		}
	}
}
