package scoring

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/shopspring/decimal"
)

// FuzzParse: any text either parses to a value with at most 18 places and under
// 10^30 that Format/Parse round-trips, or fails with one of the sentinel errors.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"0", "-1.5", "1e-18", "1e-19", "0.0000000000000000001", "1e29", "1e30", "abc", "",
		"1.000000000000000000000", "0e-5000", "1e-5000", "9999999999999999999999999999999", " 2 ", "+.5", "−3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := Parse(s)
		if err != nil {
			if !errors.Is(err, ErrNotNumber) && !errors.Is(err, ErrTooManyPlaces) && !errors.Is(err, ErrOutOfRange) {
				t.Fatalf("Parse(%q): unexpected error %v", s, err)
			}
			return
		}
		if !d.Equal(Round(d)) || d.Abs().Cmp(decimal.New(1, 30)) >= 0 {
			t.Fatalf("Parse(%q) = %s breaks the bounds", s, d.String())
		}
		back, err := Parse(Format(d))
		if err != nil || !back.Equal(d) {
			t.Fatalf("Parse(Format(%s)) = %s, %v", d.String(), back.String(), err)
		}
	})
}

// FuzzNumeric: exp, ln, sqrt and pow of any parsable arguments return a value
// with at most 18 places or ErrDomain, never a panic.
func FuzzNumeric(f *testing.F) {
	for _, p := range [][2]string{{"-1.6", "0.7"}, {"1.37", "0.7"}, {"-43", "2"}, {"100", "-1"}, {"0", "0"},
		{"-2", "0.5"}, {"2", "1000"}, {"10", "501"}, {"0.000000000000000001", "-55.5"}, {"99999999999999999999", "1.5"}} {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, xs, ys string) {
		x, err1 := Parse(xs)
		y, err2 := Parse(ys)
		if err1 != nil || err2 != nil {
			return
		}
		for name, fn := range map[string]func() (decimal.Decimal, error){
			"exp": func() (decimal.Decimal, error) { return Exp(x) }, "ln": func() (decimal.Decimal, error) { return Ln(x) },
			"sqrt": func() (decimal.Decimal, error) { return Sqrt(x) }, "pow": func() (decimal.Decimal, error) { return Pow(x, y) },
		} {
			r, err := fn()
			if err != nil {
				if !errors.Is(err, ErrDomain) {
					t.Fatalf("%s(%s, %s): %v is not ErrDomain", name, xs, ys, err)
				}
				continue
			}
			if !r.Equal(Round(r)) {
				t.Fatalf("%s(%s, %s) = %s has more than 18 places", name, xs, ys, r.String())
			}
		}
	})
}

// FuzzScoreWorkflow: any input either is rejected with an InputError or scores
// in [0, 1] with every sub-score in [0, 1].
func FuzzScoreWorkflow(f *testing.F) {
	f.Add("1", int64(3), int64(4), "0.5", "1", "10", "20", int64(0), int64(0), int64(0), int64(0))
	f.Add("0.7", int64(4), int64(4), "0", "1", "0", "1", int64(5), int64(2), int64(1), int64(1))
	f.Add("1.5", int64(5), int64(4), "-1", "0", "-1", "0", int64(-1), int64(-1), int64(-1), int64(-1))
	f.Add("0.700000000000000001", int64(1), int64(1), "1e20", "1e-18", "0", "1", int64(1<<62), int64(0), int64(1<<62), int64(1<<62))
	f.Fuzz(func(t *testing.T, q string, sc, ts int64, cost, budget, lat, maxLat string, r, d, to, hf int64) {
		parse := func(s string) decimal.Decimal {
			v, err := Parse(s)
			if err != nil {
				return One
			}
			return v
		}
		in := WorkflowInput{OutputQuality: parse(q), StepsCompleted: sc, TotalSteps: ts, Cost: parse(cost), MaxBudget: parse(budget),
			LatencySeconds: parse(lat), MaxLatencySeconds: parse(maxLat), Retries: r, DeclaredRetryBudget: d, Timeouts: to, HardFailures: hf}
		res, err := ScoreWorkflow(DefaultWorkflowParams(), in)
		if err != nil {
			if !errors.Is(err, ErrInvalidInput) {
				t.Fatalf("%+v: %v is not an InputError", in, err)
			}
			return
		}
		for _, v := range []decimal.Decimal{res.Score, res.Success, res.Cost, res.Latency, res.Reliability} {
			if v.Sign() < 0 || v.Cmp(One) > 0 {
				t.Fatalf("%+v: %s outside [0, 1]", in, v.String())
			}
		}
	})
}

// fuzzScores decodes 8-byte little-endian units of 10^-(b%19) into scores.
func fuzzScores(data []byte) []decimal.Decimal {
	var out []decimal.Decimal
	for len(data) >= 9 && len(out) < 300 {
		v := int64(binary.LittleEndian.Uint64(data[:8]))
		out = append(out, decimal.New(v, -int32(data[8]%19)))
		data = data[9:]
	}
	return out
}

// FuzzCapWeights: any scores and cap either are rejected with an InputError or
// give weights in [0, cap] that sum with the residual to exactly 1, which ToU16
// then turns into 65535 units.
func FuzzCapWeights(f *testing.F) {
	f.Add([]byte{10, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}, int64(15), uint8(2), uint16(0))
	f.Add([]byte{}, int64(1), uint8(0), uint16(7))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 18, 0, 0, 0, 0, 0, 0, 0, 0, 0}, int64(333333333333333333), uint8(18), uint16(65535))
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 3, 1, 0, 0, 0, 0, 0, 0, 0, 3}, int64(-15), uint8(2), uint16(1))
	f.Fuzz(func(t *testing.T, data []byte, capUnits int64, capPlaces uint8, burn uint16) {
		scores := fuzzScores(data)
		cap := decimal.New(capUnits, -int32(capPlaces%20))
		res, err := CapWeights(scores, cap)
		if err != nil {
			if !errors.Is(err, ErrInvalidInput) {
				t.Fatalf("CapWeights: %v is not an InputError", err)
			}
			return
		}
		if err := checkCapInvariants(res, cap); err != nil {
			t.Fatalf("scores %v cap %s: %v", scores, cap, err)
		}
		uids := make([]uint16, len(scores))
		for i := range uids {
			uids[i] = uint16(i * 7)
		}
		vec, err := ToU16(uids, res.Weights, res.Unallocated, burn)
		if err != nil {
			t.Fatalf("ToU16 of a valid split: %v", err)
		}
		total := 0
		for _, w := range vec {
			total += int(w.Weight)
		}
		if total != U16Total {
			t.Fatalf("u16 total %d", total)
		}
	})
}
