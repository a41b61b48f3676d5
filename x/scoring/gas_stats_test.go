package scoring

import (
	"errors"
	"testing"

	"github.com/shopspring/decimal"
)

func TestGasHistoryStatsHandDerived(t *testing.T) {
	tests := []struct {
		name                           string
		h                              []GasHistoryPoint
		inclMean, inclStd, over, overS string
	}{
		{"one point", hist("0.7", "0.3"), "0.7", "0", "0.3", "0"},
		// inclusion [0.5, 1]: mean 0.75, pstdev 0.25; overpayment [0, 0.2]: mean 0.1, pstdev 0.1.
		{"two points", hist("0.5", "0", "1", "0.2"), "0.75", "0.25", "0.1", "0.1"},
		// inclusion [0, 0, 1]: mean 1/3 → 0.333…333, pstdev √(2/9) = 0.471404520791031683 (0.4714045207910316829…).
		{"thirds", hist("0", "0", "0", "0", "1", "0"), "0.333333333333333333", "0.471404520791031683", "0", "0"},
	}
	for _, tc := range tests {
		s, err := GasHistoryStats(tc.h)
		mustNoErr(t, err)
		sameDec(t, tc.name+" inclusion mean", s.InclusionMean, tc.inclMean)
		sameDec(t, tc.name+" inclusion std", s.InclusionStd, tc.inclStd)
		sameDec(t, tc.name+" overpayment mean", s.OverpaymentMean, tc.over)
		sameDec(t, tc.name+" overpayment std", s.OverpaymentStd, tc.overS)
		if s.Points != len(tc.h) {
			t.Errorf("%s: points %d, want %d", tc.name, s.Points, len(tc.h))
		}
	}
	var ie *InputError
	if _, err := GasHistoryStats(nil); !errors.As(err, &ie) || ie.Field != "history" {
		t.Errorf("empty history: err = %v", err)
	}
	if _, err := GasHistoryStats(hist("1", "-1")); !errors.As(err, &ie) || ie.Field != "history[0].avg_overpayment" {
		t.Errorf("negative overpayment: err = %v", err)
	}
}

func TestGasFromStatsHandDerived(t *testing.T) {
	st := func(im, is, om, os string, n int) GasStats {
		return GasStats{InclusionMean: decOf(im), InclusionStd: decOf(is), OverpaymentMean: decOf(om), OverpaymentStd: decOf(os), Points: n}
	}
	tests := []struct {
		name      string
		s         GasStats
		live      string
		inclCOV   string
		overCOV   string
		utilities [5]string
		score     string
	}{
		// the "unstable inclusion" case of TestScoreGasHandDerived, from its statistics.
		{"unstable inclusion", st("0.75", "0.25", "0", "0", 2), "1", "0.333333333333333333", "0",
			[5]string{"0.75", "0.344153786865412390", "1", "1", "1"}, "0.776623068029811859"},
		// overpayment mean 0.1, std 0.1: COV 1, u3 = exp(−3.2) = 0.0407622039783662151… → …215;
		// u2 = exp(−0.32) = 0.7261490370736909248… → …925 (Python's decimal at 60 digits).
		// 0.5 + 0.15 + 0.15·0.726149037073690925 + 0.10·0.040762203978366215 + 0.10·0.5
		// = 0.81299857595889026025 → 0.812998575958890260.
		{"unstable overpayment", st("1", "0", "0.1", "0.1", 3), "0.5", "0", "1",
			[5]string{"1", "1", "0.726149037073690925", "0.040762203978366215", "0.5"}, "0.812998575958890260"},
		// mean 0 with a non-zero std: the COV is undefined, recorded 0, utility 0.
		// 0 + 0 + 0.15 + 0.10 + 0 = 0.25.
		{"undefined inclusion cov", st("0", "0.1", "0", "0", 1), "0", "0",
			"0", [5]string{"0", "0", "1", "1", "0"}, "0.25"},
	}
	for _, tc := range tests {
		r, err := GasFromStats(DefaultGasParams(), tc.s, decOf(tc.live))
		mustNoErr(t, err)
		sameDec(t, tc.name+" inclusion cov", r.InclusionCOV, tc.inclCOV)
		sameDec(t, tc.name+" overpayment cov", r.OverpaymentCOV, tc.overCOV)
		for i, u := range tc.utilities {
			sameDec(t, tc.name+" utility", r.Utilities[i], u)
		}
		sameDec(t, tc.name+" score", r.Score, tc.score)
		sameDec(t, tc.name+" liveliness", r.Liveliness, tc.live)
		if r.Points != tc.s.Points || !r.InclusionMean.Equal(tc.s.InclusionMean) || !r.OverpaymentStd.Equal(tc.s.OverpaymentStd) {
			t.Errorf("%s: statistics not carried into the result: %+v", tc.name, r)
		}
	}
}

func TestGasFromStatsRejects(t *testing.T) {
	ok := GasStats{InclusionMean: decOf("0.5"), InclusionStd: decOf("0.1"), OverpaymentMean: decOf("0.2"), OverpaymentStd: decOf("0.1"), Points: 4}
	mod := func(f func(*GasStats)) GasStats { s := ok; f(&s); return s }
	cases := []struct {
		field string
		s     GasStats
		live  string
	}{
		{"stats.points", mod(func(s *GasStats) { s.Points = 0 }), "1"},
		{"liveliness", ok, "1.000000000000000001"},
		{"liveliness", ok, "-0.1"},
		{"stats.inclusion_mean", mod(func(s *GasStats) { s.InclusionMean = decOf("1.01") }), "1"},
		{"stats.inclusion_mean", mod(func(s *GasStats) { s.InclusionMean = decOf("-0.01") }), "1"},
		{"stats.inclusion_std", mod(func(s *GasStats) { s.InclusionStd = decOf("-0.01") }), "1"},
		// a negative overpayment would make exp(−β·x) overflow: rejected, never a panic.
		{"stats.overpayment_mean", mod(func(s *GasStats) { s.OverpaymentMean = decOf("-1000") }), "1"},
		{"stats.overpayment_std", mod(func(s *GasStats) { s.OverpaymentStd = decOf("-0.000000000000000001") }), "1"},
	}
	for _, tc := range cases {
		var ie *InputError
		_, err := GasFromStats(DefaultGasParams(), tc.s, decOf(tc.live))
		if !errors.As(err, &ie) || ie.Field != tc.field {
			t.Errorf("%s: err = %v", tc.field, err)
		}
	}
	// the boundaries are accepted
	edge := GasStats{InclusionMean: One, InclusionStd: Zero, OverpaymentMean: Zero, OverpaymentStd: Zero, Points: 1}
	if _, err := GasFromStats(DefaultGasParams(), edge, Zero); err != nil {
		t.Errorf("boundary stats rejected: %v", err)
	}
	bad := DefaultGasParams()
	bad.Beta = Zero
	var ie *InputError
	if _, err := GasFromStats(bad, ok, One); !errors.As(err, &ie) || ie.Field != "gas.beta" {
		t.Errorf("invalid params: err = %v", err)
	}
}

// ScoreGas is GasHistoryStats then GasFromStats, field for field, over simulated histories.
func TestScoreGasIsStatsThenFromStats(t *testing.T) {
	rng := newTestRNG(7)
	p := DefaultGasParams()
	for iter := 0; iter < 300; iter++ {
		h := make([]GasHistoryPoint, 1+rng.intn(70))
		for i := range h {
			h[i] = GasHistoryPoint{Time: int64(i), InclusionRate: decimal.New(rng.int63n(11), -1),
				AvgOverpayment: decimal.New(rng.int63n(5_000_000), -6)}
		}
		live := decimal.New(rng.int63n(11), -1)
		want, err := ScoreGas(p, h, live)
		mustNoErr(t, err)
		s, err := GasHistoryStats(h)
		mustNoErr(t, err)
		got, err := GasFromStats(p, s, live)
		mustNoErr(t, err)
		if !sameGasResult(got, want) {
			t.Fatalf("history %d: GasFromStats(GasHistoryStats) = %+v, ScoreGas = %+v", iter, got, want)
		}
	}
}

func sameGasResult(a, b GasResult) bool {
	ds := [][2]decimal.Decimal{{a.Score, b.Score}, {a.InclusionMean, b.InclusionMean}, {a.InclusionStd, b.InclusionStd},
		{a.InclusionCOV, b.InclusionCOV}, {a.OverpaymentMean, b.OverpaymentMean}, {a.OverpaymentStd, b.OverpaymentStd},
		{a.OverpaymentCOV, b.OverpaymentCOV}, {a.Liveliness, b.Liveliness}}
	for i := range a.Utilities {
		ds = append(ds, [2]decimal.Decimal{a.Utilities[i], b.Utilities[i]})
	}
	for _, d := range ds {
		if !d[0].Equal(d[1]) {
			return false
		}
	}
	return a.Points == b.Points
}

// FuzzGasFromStats: any statistics either score inside [0, 1] or return an error; never a panic.
func FuzzGasFromStats(f *testing.F) {
	f.Add("0.75", "0.25", "0", "0", 2, "1")
	f.Add("0", "0.1", "0", "0", 1, "0")
	f.Add("1", "0", "-5", "0", 1, "1")
	f.Add("0.5", "0.5", "1000000", "99999999", 60, "0.3")
	f.Add("0.5", "-0.5", "1", "1", 0, "2")
	f.Fuzz(func(t *testing.T, im, is, om, os string, n int, live string) {
		var ds [5]decimal.Decimal
		for i, s := range []string{im, is, om, os, live} {
			d, ok := fuzzDec(s)
			if !ok {
				return
			}
			ds[i] = d
		}
		r, err := GasFromStats(DefaultGasParams(), GasStats{InclusionMean: ds[0], InclusionStd: ds[1],
			OverpaymentMean: ds[2], OverpaymentStd: ds[3], Points: n}, ds[4])
		if err != nil {
			return
		}
		for _, v := range append(r.Utilities[:], r.Score) {
			if v.Sign() < 0 || v.Cmp(One) > 0 {
				t.Fatalf("value outside [0, 1]: %+v", r)
			}
		}
	})
}
