package scoring

import (
	"errors"
	"testing"

	"github.com/shopspring/decimal"
)

func TestGasOutcome(t *testing.T) {
	tests := []struct {
		estimate, min string
		included      bool
		over          string
	}{
		{"0", "1", false, "0"},           // nothing offered: not included
		{"0.999999999", "1", false, "0"}, // below the minimum: no overpayment, punished by inclusion
		{"1", "1", true, "0"},            // exactly the minimum: included, no overpayment
		{"1.5", "1", true, "0.5"},        // 50% more expensive
		{"3", "2", true, "0.5"},          // relative, not absolute
		{"1", "3", false, "0"},
		{"2", "3", false, "0"},
		{"10", "3", true, "2.333333333333333333"}, // 7/3 rounded at the 18th place
		{"5", "3", true, "0.666666666666666667"},  // 2/3 rounds half away from zero
	}
	for _, tc := range tests {
		for _, fresh := range []bool{true, false} {
			s, err := GasOutcome(decOf(tc.estimate), decOf(tc.min), fresh)
			mustNoErr(t, err)
			if s.Included != tc.included || s.Fresh != fresh {
				t.Errorf("GasOutcome(%s, %s) = %+v", tc.estimate, tc.min, s)
			}
			sameDec(t, "overpayment", s.Overpayment, tc.over)
		}
	}
	bad := []struct{ estimate, min, field string }{
		{"1", "0", "min_price"}, {"1", "-1", "min_price"}, {"-0.1", "1", "estimate"}, {"-1", "0", "min_price"},
	}
	for _, tc := range bad {
		var ie *InputError
		_, err := GasOutcome(decOf(tc.estimate), decOf(tc.min), true)
		if !errors.As(err, &ie) || ie.Field != tc.field {
			t.Errorf("GasOutcome(%s, %s): err = %v, want InputError on %s", tc.estimate, tc.min, err, tc.field)
		}
	}
}

func slots(included, fresh []bool, over []string) []GasSlot {
	out := make([]GasSlot, len(included))
	for i := range out {
		out[i] = GasSlot{Included: included[i], Fresh: fresh[i], Overpayment: decOf(over[i])}
	}
	return out
}

func TestMemoryPerformance(t *testing.T) {
	T, F := true, false
	tests := []struct {
		name              string
		mem               []GasSlot
		incl, over, alive string
	}{
		{"empty", nil, "0", "0", "0"},
		{"one perfect", slots([]bool{T}, []bool{T}, []string{"0"}), "1", "0", "1"},
		{"one stale miss", slots([]bool{F}, []bool{F}, []string{"0"}), "0", "0", "0"},
		// 8 of 10 included at 0.25 each: Σ = 2 → 0.2; 7 fresh.
		{"ten", slots(
			[]bool{T, T, T, T, F, T, T, T, F, T},
			[]bool{T, F, T, T, T, F, T, T, F, T},
			[]string{"0.25", "0.25", "0.25", "0.25", "0", "0.25", "0.25", "0.25", "0", "0.25"}),
			"0.8", "0.2", "0.7"},
		// thirds round at the 18th place
		{"three", slots([]bool{T, F, F}, []bool{T, T, F}, []string{"1", "0", "0"}),
			"0.333333333333333333", "0.333333333333333333", "0.666666666666666667"},
	}
	for _, tc := range tests {
		p := MemoryPerformance(tc.mem)
		sameDec(t, tc.name+" inclusion", p.InclusionRate, tc.incl)
		sameDec(t, tc.name+" overpayment", p.AvgOverpayment, tc.over)
		sameDec(t, tc.name+" liveliness", p.Liveliness, tc.alive)
	}
}

func hist(pairs ...string) []GasHistoryPoint {
	out := make([]GasHistoryPoint, len(pairs)/2)
	for i := range out {
		out[i] = GasHistoryPoint{Time: int64(12 * i), InclusionRate: decOf(pairs[2*i]), AvgOverpayment: decOf(pairs[2*i+1])}
	}
	return out
}

func TestScoreGasHandDerived(t *testing.T) {
	tests := []struct {
		name      string
		h         []GasHistoryPoint
		live      string
		score     string
		utilities [5]string
	}{
		{"perfect", hist("1", "0", "1", "0"), "1", "1", [5]string{"1", "1", "1", "1", "1"}},
		// never included: u0 = 0; constant series: COV 0 → u1 = u3 = 1; overpayment 0 → u2 = 1.
		{"never included", hist("0", "0", "0", "0"), "0", "0.4", [5]string{"0", "1", "1", "1", "0"}},
		// overpayment 0.5: u2 = exp(−1.6) = 0.201896517994655408 (the seed's u = 0.2 at x = 0.5);
		// 0.5 + 0.15 + 0.15·0.201896517994655408 + 0.10 + 0.10 = 0.8802844776991983112 → …311.
		{"fifty percent over", hist("1", "0.5"), "1", "0.880284477699198311",
			[5]string{"1", "1", "0.201896517994655408", "1", "1"}},
		// overpayment so large that exp underflows to 0 at 18 places.
		{"huge overpayment", hist("1", "100"), "1", "0.85", [5]string{"1", "1", "0", "1", "1"}},
		// inclusion [0.5, 1]: mean 0.75, pstdev 0.25, COV 1/3 → exp(−3.2·0.333333333333333333)
		// = 0.344153786865412390 (the Python reference at 50 digits).
		// 0.375 + 0.15·0.344153786865412390 + 0.15 + 0.10 + 0.10 = 0.7766230680298118585 → …859.
		{"unstable inclusion", hist("0.5", "0", "1", "0"), "1", "0.776623068029811859", [5]string{"0.75", "0.344153786865412390", "1", "1", "1"}},
	}
	for _, tc := range tests {
		r, err := ScoreGas(DefaultGasParams(), tc.h, decOf(tc.live))
		mustNoErr(t, err)
		for i, u := range tc.utilities {
			sameDec(t, tc.name+" utility", r.Utilities[i], u)
		}
		sameDec(t, tc.name+" score", r.Score, tc.score)
		if r.Points != len(tc.h) {
			t.Errorf("%s: points %d", tc.name, r.Points)
		}
	}
}

func TestGasCOVUndefined(t *testing.T) {
	if c, ok := cov(Zero, Zero); !ok || !c.IsZero() {
		t.Errorf("cov(0, 0) = %s, %v; want 0, defined", c, ok)
	}
	if _, ok := cov(Zero, decOf("0.1")); ok {
		t.Error("cov(mean 0, std 0.1) is defined; want undefined")
	}
	if u := expUtility(decOf("3.2"), Zero, false); !u.IsZero() {
		t.Errorf("utility of an undefined COV = %s, want 0", u)
	}
	c, ok := cov(decOf("0.5"), decOf("0.25"))
	if !ok {
		t.Fatal("cov(0.5, 0.25) undefined")
	}
	sameDec(t, "cov", c, "0.5")
	sameDec(t, "u(cov 0.5)", expUtility(decOf("3.2"), c, true), "0.201896517994655408")
}

func TestScoreGasRejects(t *testing.T) {
	p := DefaultGasParams()
	cases := []struct {
		field string
		h     []GasHistoryPoint
		live  string
	}{
		{"history", nil, "1"},
		{"liveliness", hist("1", "0"), "1.1"},
		{"liveliness", hist("1", "0"), "-0.1"},
		{"history[1].inclusion_rate", hist("1", "0", "1.01", "0"), "1"},
		{"history[0].inclusion_rate", hist("-0.5", "0"), "1"},
		{"history[0].avg_overpayment", hist("1", "-0.01"), "1"},
	}
	for _, tc := range cases {
		var ie *InputError
		_, err := ScoreGas(p, tc.h, decOf(tc.live))
		if !errors.As(err, &ie) || ie.Field != tc.field {
			t.Errorf("%s: err = %v", tc.field, err)
		}
	}
}

func TestGasParamsValidate(t *testing.T) {
	mustNoErr(t, DefaultGasParams().Validate())
	mod := func(f func(*GasParams)) GasParams { p := DefaultGasParams(); f(&p); return p }
	bad := map[string]GasParams{
		"gas.memory_size":             mod(func(p *GasParams) { p.MemorySize = 0 }),
		"gas.horizon_seconds":         mod(func(p *GasParams) { p.HorizonSeconds = 0 }),
		"gas.beta":                    mod(func(p *GasParams) { p.Beta = Zero }),
		"gas.weights":                 mod(func(p *GasParams) { p.WLiveliness = decOf("0.11") }),
		"gas.w_inclusion":             mod(func(p *GasParams) { p.WInclusion = decOf("-0.5") }),
		"gas.w_overpayment_stability": mod(func(p *GasParams) { p.WOverpaymentStability = decOf("1.1") }),
		"gas.stale_prediction":        mod(func(p *GasParams) { p.StalePrediction = "skip" }),
	}
	for field, p := range bad {
		var ie *InputError
		if err := p.Validate(); !errors.As(err, &ie) || ie.Field != field {
			t.Errorf("%s: err = %v", field, err)
		}
		if _, err := ScoreGas(p, hist("1", "0"), One); !errors.Is(err, ErrInvalidInput) {
			t.Errorf("%s: ScoreGas accepted invalid params", field)
		}
	}
}

// The score and every utility stay in [0, 1] over simulated agents, from the raw outcome to the
// score, and a better inclusion history never lowers the score when nothing else changes.
func TestGasPropertyScoreInUnitInterval(t *testing.T) {
	rng := newTestRNG(99)
	p := DefaultGasParams()
	for iter := 0; iter < 400; iter++ {
		var mem []GasSlot
		var history []GasHistoryPoint
		for w := 0; w < 10+rng.intn(60); w++ {
			minPrice := decimal.New(1+rng.int63n(100_000), -3)
			est := decimal.New(rng.int63n(300_000), -3)
			s, err := GasOutcome(est, minPrice, rng.intn(4) > 0)
			mustNoErr(t, err)
			mem = append(mem, s)
			if len(mem) > p.MemorySize {
				mem = mem[1:]
			}
			if len(mem) == p.MemorySize {
				perf := MemoryPerformance(mem)
				history = append(history, GasHistoryPoint{Time: int64(w), InclusionRate: perf.InclusionRate, AvgOverpayment: perf.AvgOverpayment})
			}
		}
		live := MemoryPerformance(mem).Liveliness
		r, err := ScoreGas(p, history, live)
		mustNoErr(t, err)
		for _, v := range append(r.Utilities[:], r.Score) {
			if v.Sign() < 0 || v.Cmp(One) > 0 {
				t.Fatalf("value outside [0, 1]: %+v", r)
			}
		}
		better := make([]GasHistoryPoint, len(history))
		for i, h := range history {
			better[i] = GasHistoryPoint{Time: h.Time, InclusionRate: One, AvgOverpayment: h.AvgOverpayment}
		}
		rb, err := ScoreGas(p, better, live)
		mustNoErr(t, err)
		if rb.Score.Cmp(r.Score) < 0 {
			t.Fatalf("full inclusion lowered the score: %s → %s", r.Score, rb.Score)
		}
	}
}

// TestGasStale: a window without a fresh prediction is missed under "miss"
// (whatever the last prediction was) and judged on the last one, not fresh,
// under "carry"; an unknown policy and a non-positive minimum are errors.
func TestGasStale(t *testing.T) {
	tests := []struct {
		policy      StalePolicy
		last, min   string
		included    bool
		overpayment string
	}{
		{StaleMiss, "1000000", "20", false, "0"},
		{StaleMiss, "1", "20", false, "0"},
		{StaleCarry, "1000000", "20", true, "49999"},
		{StaleCarry, "30", "20", true, "0.5"},
		{StaleCarry, "19", "20", false, "0"},
	}
	for _, tc := range tests {
		s, err := GasStale(tc.policy, decOf(tc.last), decOf(tc.min))
		mustNoErr(t, err)
		if s.Fresh || s.Included != tc.included || !s.Overpayment.Equal(decOf(tc.overpayment)) {
			t.Errorf("%s %s/%s: %+v", tc.policy, tc.last, tc.min, s)
		}
	}
	for _, policy := range []StalePolicy{StaleMiss, StaleCarry} {
		if _, err := GasStale(policy, One, Zero); !errors.Is(err, ErrInvalidInput) {
			t.Errorf("%s: min price 0 accepted", policy)
		}
	}
	if _, err := GasStale("", One, One); !errors.Is(err, ErrInvalidInput) {
		t.Error("empty policy accepted")
	}
}
