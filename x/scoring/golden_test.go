package scoring

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// TestGoldenNumeric sweeps exp, ln, pow and sqrt over the arguments of
// testdata/golden_numeric.csv (scripts/golden.py, Python decimal at 100 digits
// cross-checked at 120) and requires every result to match to the last place.
func TestGoldenNumeric(t *testing.T) {
	f, err := os.Open("testdata/golden_numeric.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	counts := map[string]int{}
	mismatches := 0
	sc := bufio.NewScanner(f)
	for line := 0; sc.Scan(); {
		line++
		text := sc.Text()
		if strings.HasPrefix(text, "#") || strings.HasPrefix(text, "fn,") {
			continue
		}
		cols := strings.Split(text, ",")
		if len(cols) != 4 {
			t.Fatalf("line %d: %q has %d columns", line, text, len(cols))
		}
		got, err := goldenEval(cols[0], cols[1], cols[2])
		if err != nil {
			t.Fatalf("line %d: %s(%s, %s): %v", line, cols[0], cols[1], cols[2], err)
		}
		counts[cols[0]]++
		if !got.Equal(Round(got)) {
			t.Errorf("line %d: %s(%s %s) = %s carries more than 18 places", line, cols[0], cols[1], cols[2], got.String())
		}
		if Format(got) != cols[3] {
			mismatches++
			if mismatches <= 20 {
				t.Errorf("line %d: %s(%s %s) = %s, want %s", line, cols[0], cols[1], cols[2], Format(got), cols[3])
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	total := counts["exp"] + counts["ln"] + counts["pow"] + counts["sqrt"]
	if total < 20000 || counts["exp"] < 8000 || counts["ln"] < 4000 || counts["pow"] < 4000 || counts["sqrt"] < 4000 {
		t.Fatalf("sweep too small: %v", counts)
	}
	if mismatches > 0 {
		t.Fatalf("%d of %d golden arguments mismatch", mismatches, total)
	}
	t.Logf("%d arguments, 0 mismatches: %v", total, counts)
}

func goldenEval(fn, x, y string) (decimal.Decimal, error) {
	a, err := Parse(x)
	if err != nil {
		return Zero, err
	}
	switch fn {
	case "exp":
		return Exp(a)
	case "ln":
		return Ln(a)
	case "sqrt":
		return Sqrt(a)
	case "pow":
		b, err := Parse(y)
		if err != nil {
			return Zero, err
		}
		return Pow(a, b)
	}
	return Zero, os.ErrInvalid
}
