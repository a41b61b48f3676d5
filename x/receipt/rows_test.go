package receipt

import (
	"strings"
	"testing"
)

// FuzzReceiptRows: takeRows never panics, and what it accepts is exactly the
// complete rows 0..n−1 with the fields that were given.
func FuzzReceiptRows(f *testing.F) {
	f.Add("memory.0.included", "true", "memory.0.fresh", "false", "memory.0.overpayment", "0")
	f.Add("memory.1.included", "true", "memory.0.fresh", "false", "evm_block", "7")
	f.Add("memory.00.included", "true", "memory.0.fresh", "", "memory.-1.fresh", "x")
	f.Add("memory.9999999999999999999.fresh", "a", "memory..fresh", "b", "memory.0", "c")
	f.Fuzz(func(t *testing.T, n1, v1, n2, v2, n3, v3 string) {
		fs := []field{{n1, v1}, {n2, v2}, {n3, v3}}
		rest, rows, err := takeRows("inputs", "memory", fs, memorySubs)
		if err != nil {
			return
		}
		taken := 0
		for i, r := range rows {
			for j, v := range r {
				if v == "" {
					t.Fatalf("row %d field %d empty in %+v", i, j, rows)
				}
				taken++
			}
		}
		if taken+len(rest) != len(fs) {
			t.Fatalf("%d taken + %d rest from %d fields", taken, len(rest), len(fs))
		}
		for _, r := range rest {
			if strings.HasPrefix(r.Name, "memory.") {
				t.Fatalf("left %q in the rest", r.Name)
			}
		}
	})
}
