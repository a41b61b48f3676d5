package scoring

import (
	"errors"
	"testing"

	"github.com/shopspring/decimal"
)

func num(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// The values the issue names, and the boundaries of each function's domain.
func TestNumericTable(t *testing.T) {
	tests := []struct {
		name    string
		f       func() (decimal.Decimal, error)
		want    string
		wantErr error
	}{
		{"exp(-1.6) issue value", func() (decimal.Decimal, error) { return Exp(num("-1.6")) }, "0.201896517994655408", nil},
		{"exp(-3.2×0.1) issue value", func() (decimal.Decimal, error) { return Exp(num("-0.32")) }, "0.726149037073690925", nil},
		{"exp(0) = 1", func() (decimal.Decimal, error) { return Exp(Zero) }, "1.000000000000000000", nil},
		{"exp(1) = e", func() (decimal.Decimal, error) { return Exp(One) }, "2.718281828459045235", nil},
		{"exp(10), integer argument still rounded", func() (decimal.Decimal, error) { return Exp(num("10")) }, "22026.465794806716516958", nil},
		{"exp(-42): 5.75e-19 rounds up to one ulp", func() (decimal.Decimal, error) { return Exp(num("-42")) }, "0.000000000000000001", nil},
		{"exp(-42.2): 4.7e-19 rounds to 0", func() (decimal.Decimal, error) { return Exp(num("-42.2")) }, "0.000000000000000000", nil},
		{"exp at the floor -43 is computed, 0", func() (decimal.Decimal, error) { return Exp(num("-43")) }, "0.000000000000000000", nil},
		{"exp below the floor is 0", func() (decimal.Decimal, error) { return Exp(num("-1000000")) }, "0.000000000000000000", nil},
		{"exp at the ceiling 100", func() (decimal.Decimal, error) { return Exp(num("100")) }, "26881171418161354484126255515800135873611118.773741922415191609", nil},
		{"exp above the ceiling", func() (decimal.Decimal, error) { return Exp(num("100.000000000000000001")) }, "", ErrDomain},
		{"ln(1) = 0", func() (decimal.Decimal, error) { return Ln(One) }, "0.000000000000000000", nil},
		{"ln(2)", func() (decimal.Decimal, error) { return Ln(num("2")) }, "0.693147180559945309", nil},
		{"ln(0) domain", func() (decimal.Decimal, error) { return Ln(Zero) }, "", ErrDomain},
		{"ln(-1) domain", func() (decimal.Decimal, error) { return Ln(num("-1")) }, "", ErrDomain},
		{"1.37^0.7 issue value", func() (decimal.Decimal, error) { return Pow(num("1.37"), num("0.7")) }, "1.246534770239448685", nil},
		{"0.25^9.5 = 0.5^19, an exact tie, away from zero", func() (decimal.Decimal, error) { return Pow(num("0.25"), num("9.5")) }, "0.000001907348632813", nil},
		{"(-2)^3 integer exponent", func() (decimal.Decimal, error) { return Pow(num("-2"), num("3")) }, "-8.000000000000000000", nil},
		{"(-2)^-3 integer exponent", func() (decimal.Decimal, error) { return Pow(num("-2"), num("-3")) }, "-0.125000000000000000", nil},
		{"x^0 = 1", func() (decimal.Decimal, error) { return Pow(num("7.5"), Zero) }, "1.000000000000000000", nil},
		{"0^0.5 = 0", func() (decimal.Decimal, error) { return Pow(Zero, num("0.5")) }, "0.000000000000000000", nil},
		{"2^-70 underflows to 0 at 18 places", func() (decimal.Decimal, error) { return Pow(num("2"), num("-70")) }, "0.000000000000000000", nil},
		{"0.123456789^5 exact result rounded to 18", func() (decimal.Decimal, error) { return Pow(num("0.123456789"), num("5")) }, "0.000028679718602997", nil},
		{"negative base, fractional exponent", func() (decimal.Decimal, error) { return Pow(num("-1.5"), num("0.5")) }, "", ErrDomain},
		{"2^1000 is inside the work bound", func() (decimal.Decimal, error) { return Pow(num("2"), num("1000")) }, "10715086071862673209484250490600018105614048117055336074437503883703510511249361224931983788156958581275946729175531468251871452856923140435984577574698574803934567774824230985421074605062371141877954182153046474983581941267398767559165543946077062914571196477686542167660429831652624386837205668069376.000000000000000000", nil},
		{"2^1001 is beyond it", func() (decimal.Decimal, error) { return Pow(num("2"), num("1001")) }, "", ErrDomain},
		{"10^501 is beyond it", func() (decimal.Decimal, error) { return Pow(num("10"), num("501")) }, "", ErrDomain},
		{"0.001^-250 is beyond it", func() (decimal.Decimal, error) { return Pow(num("0.001"), num("-250.5")) }, "", ErrDomain},
		{"0^0 domain", func() (decimal.Decimal, error) { return Pow(Zero, Zero) }, "", ErrDomain},
		{"0^-1 domain", func() (decimal.Decimal, error) { return Pow(Zero, num("-1")) }, "", ErrDomain},
		{"sqrt(2) issue value", func() (decimal.Decimal, error) { return Sqrt(num("2")) }, "1.414213562373095049", nil},
		{"sqrt(0) = 0", func() (decimal.Decimal, error) { return Sqrt(Zero) }, "0.000000000000000000", nil},
		{"sqrt(1e-18) = 1e-9", func() (decimal.Decimal, error) { return Sqrt(num("0.000000000000000001")) }, "0.000000001000000000", nil},
		{"sqrt(-0.1) domain", func() (decimal.Decimal, error) { return Sqrt(num("-0.1")) }, "", ErrDomain},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.f()
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if Format(got) != tc.want {
				t.Fatalf("got %s, want %s", Format(got), tc.want)
			}
			if !got.Equal(Round(got)) {
				t.Fatalf("%s carries more than 18 places", got.String())
			}
		})
	}
}

func TestRoundAndQuoHalfAwayFromZero(t *testing.T) {
	tests := []struct {
		name string
		got  decimal.Decimal
		want string
	}{
		{"half ulp rounds up", Round(num("0.0000000000000000005")), "0.000000000000000001"},
		{"negative half ulp rounds down", Round(num("-0.0000000000000000005")), "-0.000000000000000001"},
		{"below half ulp", Round(num("0.0000000000000000004999")), "0.000000000000000000"},
		{"1/3", Quo(One, num("3")), "0.333333333333333333"},
		{"2/3 rounds up", Quo(num("2"), num("3")), "0.666666666666666667"},
		{"-2/3 rounds away from zero", Quo(num("-2"), num("3")), "-0.666666666666666667"},
		{"exact quotient", Quo(num("7"), num("4")), "1.750000000000000000"},
		{"clamp below", Clamp01(num("-0.1")), "0.000000000000000000"},
		{"clamp above", Clamp01(num("1.000000000000000001")), "1.000000000000000000"},
		{"clamp inside", Clamp(num("5"), Zero, Hundred), "5.000000000000000000"},
	}
	for _, tc := range tests {
		if Format(tc.got) != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, Format(tc.got), tc.want)
		}
	}
}

func TestQuoByZeroPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("Quo(1, 0) did not panic")
		}
	}()
	Quo(One, Zero)
}

func TestParse(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		wantErr error
	}{
		{"12", "12.000000000000000000", nil},
		{" -0.5 ", "-0.500000000000000000", nil},
		{"1.250000000000000000", "1.250000000000000000", nil},
		{"0.000000000000000001", "0.000000000000000001", nil},
		{"1.0000000000000000000", "1.000000000000000000", nil},
		{"1e-18", "0.000000000000000001", nil},
		{"5E3", "5000.000000000000000000", nil},
		{"0e-5000", "0.000000000000000000", nil},
		{"999999999999999999999999999999", "999999999999999999999999999999.000000000000000000", nil},
		{"0.0000000000000000001", "", ErrTooManyPlaces},
		{"1.2345678901234567891", "", ErrTooManyPlaces},
		{"1e-19", "", ErrTooManyPlaces},
		{"1e-5000", "", ErrTooManyPlaces},
		{"1000000000000000000000000000000", "", ErrOutOfRange},
		{"1e30", "", ErrOutOfRange},
		{"1e5000", "", ErrOutOfRange},
		{"", "", ErrNotNumber},
		{"  ", "", ErrNotNumber},
		{"abc", "", ErrNotNumber},
		{"NaN", "", ErrNotNumber},
		{"1,5", "", ErrNotNumber},
	}
	for _, tc := range tests {
		got, err := Parse(tc.in)
		if tc.wantErr != nil {
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("Parse(%q) err = %v, want %v", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if Format(got) != tc.want || got.Exponent() < -Places {
			t.Errorf("Parse(%q) = %s (exponent %d), want %s", tc.in, got.String(), got.Exponent(), tc.want)
		}
	}
}
