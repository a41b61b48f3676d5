package scoring

import (
	"errors"
	"math/big"
	"testing"

	"github.com/shopspring/decimal"
)

func decsOf(ss ...string) []decimal.Decimal {
	out := make([]decimal.Decimal, len(ss))
	for i, s := range ss {
		out[i] = decimal.RequireFromString(s)
	}
	return out
}

func TestStatsHandDerived(t *testing.T) {
	tests := []struct {
		name                             string
		xs                               []decimal.Decimal
		sum, mean, pstdev, stdev, median string
		quartiles                        [3]string
	}{
		// mean 1.01, squared deviations sum 0.0168: pvariance 0.00168, variance 0.0168/9.
		{"issue sample", decsOf("1.02", "0.98", "1.10", "0.95", "1.00", "1.05", "0.97", "1.01", "0.99", "1.03"),
			"10.10", "1.01", "0.040987803063838394", "0.043204937989385735", "1.005",
			[3]string{"0.9775", "1.005", "1.035"}},
		// [1,2]: pvariance 1/4 → 0.5; variance 1/2 → sqrt(0.5); exclusive quartiles extrapolate:
		// m=3, q1: j=0→1, delta=-1 → (1·5 + 2·(−1))/4 = 0.75; q2: j=1, delta=2 → 1.5; q3: j=2→1, delta=5 → (1·(−1)+2·5)/4 = 2.25.
		{"two values", decsOf("1", "2"), "3", "1.5", "0.5", "0.707106781186547524", "1.5", [3]string{"0.75", "1.5", "2.25"}},
		// [1,2,3]: m=4, q1: j=1, delta=0 → 1; q3: j=3→2, delta=4 → 3.
		{"three values", decsOf("3", "1", "2"), "6", "2", "0.816496580927726033", "1", "2", [3]string{"1", "2", "3"}},
		// [1,2,3,4]: m=5, q1: j=1, delta=1 → (1·3+2)/4 = 1.25; q3: j=3, delta=3 → (3+4·3)/4 = 3.75.
		{"four values", decsOf("4", "3", "2", "1"), "10", "2.5", "1.118033988749894848", "1.290994448735805628", "2.5",
			[3]string{"1.25", "2.5", "3.75"}},
		{"constant", decsOf("7", "7", "7"), "21", "7", "0", "0", "7", [3]string{"7", "7", "7"}},
		// mean 1/3 rounds at the 18th place; halves of odd tiny values round away from zero.
		{"tiny", decsOf("0.000000000000000001", "0.000000000000000000", "0.000000000000000000"),
			"0.000000000000000001", "0", "0", "0.000000000000000001", "0",
			[3]string{"0", "0", "0.000000000000000001"}},
		{"negative", decsOf("-1", "-3"), "-4", "-2", "1", "1.414213562373095049", "-2", [3]string{"-3.5", "-2", "-0.5"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sameDec(t, "sum", Sum(tc.xs), tc.sum)
			m, err := Mean(tc.xs)
			mustNoErr(t, err)
			sameDec(t, "mean", m, tc.mean)
			p, err := PStdev(tc.xs)
			mustNoErr(t, err)
			sameDec(t, "pstdev", p, tc.pstdev)
			s, err := Stdev(tc.xs)
			mustNoErr(t, err)
			sameDec(t, "stdev", s, tc.stdev)
			md, err := Median(tc.xs)
			mustNoErr(t, err)
			sameDec(t, "median", md, tc.median)
			q, err := Quartiles(tc.xs)
			mustNoErr(t, err)
			for i := range q {
				sameDec(t, "quartile", q[i], tc.quartiles[i])
			}
		})
	}
}

func mustNoErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestStatsSmallSamples(t *testing.T) {
	one := decsOf("4.2")
	if !Sum(nil).IsZero() {
		t.Error("Sum(nil) != 0")
	}
	for name, f := range map[string]func([]decimal.Decimal) (decimal.Decimal, error){
		"Mean": Mean, "PStdev": PStdev, "Median": Median, "Stdev": Stdev,
	} {
		if _, err := f(nil); !errors.Is(err, ErrInvalidInput) {
			t.Errorf("%s(empty): err = %v, want ErrInvalidInput", name, err)
		}
	}
	if _, err := Stdev(one); !errors.Is(err, ErrInvalidInput) {
		t.Errorf("Stdev(one value): err = %v", err)
	}
	if _, err := Quartiles(one); !errors.Is(err, ErrInvalidInput) {
		t.Errorf("Quartiles(one value): err = %v", err)
	}
	var ie *InputError
	_, err := Mean(nil)
	if !errors.As(err, &ie) || ie.Field != "sample" || ie.Value != "n=0" {
		t.Errorf("Mean(empty) error %v does not name the field and value", err)
	}
	for name, f := range map[string]func([]decimal.Decimal) (decimal.Decimal, error){"Mean": Mean, "Median": Median} {
		got, err := f(one)
		mustNoErr(t, err)
		sameDec(t, name+"(single)", got, "4.2")
	}
	p, err := PStdev(one)
	mustNoErr(t, err)
	sameDec(t, "PStdev(single)", p, "0")
}

func TestStatsDoNotReorderInput(t *testing.T) {
	xs := decsOf("3", "1", "2")
	_, _ = Median(xs)
	_, _ = Quartiles(xs)
	if !xs[0].Equal(decimal.NewFromInt(3)) || !xs[1].Equal(One) {
		t.Fatalf("input reordered: %v", xs)
	}
}

// naive reference: exact rationals, the textbook two-pass variance, and a square root checked
// by the defining inequality of the correctly rounded result.
func ratOf(d decimal.Decimal) *big.Rat { return d.Rat() }

func naiveVariance(xs []decimal.Decimal, ddof int64) *big.Rat {
	n := big.NewRat(int64(len(xs)), 1)
	mean := new(big.Rat)
	for _, x := range xs {
		mean.Add(mean, ratOf(x))
	}
	mean.Quo(mean, n)
	ss := new(big.Rat)
	for _, x := range xs {
		d := new(big.Rat).Sub(ratOf(x), mean)
		ss.Add(ss, d.Mul(d, d))
	}
	return ss.Quo(ss, big.NewRat(int64(len(xs))-ddof, 1))
}

// isRoundedRoot: (r − h)² ≤ v < (r + h)² with h half a unit of the 18th place.
func isRoundedRoot(r decimal.Decimal, v *big.Rat) bool {
	h := decimal.New(5, -19)
	lo, hi := r.Sub(h), r.Add(h)
	lo2, hi2 := ratOf(lo.Mul(lo)), ratOf(hi.Mul(hi))
	if lo.Sign() < 0 {
		lo2 = new(big.Rat)
	}
	return lo2.Cmp(v) <= 0 && v.Cmp(hi2) < 0
}

func TestStatsAgainstNaive(t *testing.T) {
	rng := newTestRNG(7)
	for iter := 0; iter < 2000; iter++ {
		n := 1 + rng.intn(30)
		places := int32(rng.intn(19))
		xs := make([]decimal.Decimal, n)
		for i := range xs {
			xs[i] = decimal.New(rng.int63n(2_000_000_000)-1_000_000_000, -places)
			if iter%3 == 0 {
				// coefficients beyond int64, mixed exponents
				xs[i] = xs[i].Mul(decimal.New(123_456_789_123, int32(rng.intn(5))))
			}
		}
		p, err := PStdev(xs)
		mustNoErr(t, err)
		if !isRoundedRoot(p, naiveVariance(xs, 0)) {
			t.Fatalf("PStdev(%v) = %s is not the rounded root of the exact variance", xs, p)
		}
		if n >= 2 {
			s, err := Stdev(xs)
			mustNoErr(t, err)
			if !isRoundedRoot(s, naiveVariance(xs, 1)) {
				t.Fatalf("Stdev(%v) = %s is not the rounded root", xs, s)
			}
		}
		m, err := Mean(xs)
		mustNoErr(t, err)
		exact := new(big.Rat).Quo(ratOf(Sum(xs)), big.NewRat(int64(n), 1))
		if !roundsTo(exact, m) {
			t.Fatalf("Mean(%v) = %s, exact %s", xs, m, exact.FloatString(25))
		}
		md, err := Median(xs)
		mustNoErr(t, err)
		if !medianHasHalfBelow(xs, md) {
			t.Fatalf("Median(%v) = %s does not split the sample", xs, md)
		}
	}
}

// roundsTo: |exact − got| ≤ half a unit of the 18th place.
func roundsTo(exact *big.Rat, got decimal.Decimal) bool {
	diff := new(big.Rat).Sub(exact, ratOf(got))
	return diff.Abs(diff).Cmp(big.NewRat(1, 2_000_000_000_000_000_000)) <= 0
}

// medianHasHalfBelow checks the naive definition: at most n/2 values strictly below and at most
// n/2 strictly above.
func medianHasHalfBelow(xs []decimal.Decimal, m decimal.Decimal) bool {
	below, above := 0, 0
	for _, x := range xs {
		switch x.Cmp(m) {
		case -1:
			below++
		case 1:
			above++
		}
	}
	return 2*below <= len(xs) && 2*above <= len(xs)
}
