package simsubnet

import (
	"strings"
	"testing"
	"time"
)

// TestPercentiles: nearest rank, hand-derived.
func TestPercentiles(t *testing.T) {
	var ds []time.Duration
	for i := 100; i >= 1; i-- { // 1..100 in reverse: the input's order does not matter
		ds = append(ds, time.Duration(i))
	}
	if a, b, c := percentiles(ds); a != 50 || b != 99 || c != 100 {
		t.Errorf("1..100: %d / %d / %d, want 50 / 99 / 100", a, b, c)
	}
	if a, b, c := percentiles([]time.Duration{7}); a != 7 || b != 7 || c != 7 {
		t.Errorf("one value: %d / %d / %d", a, b, c)
	}
	if a, b, c := percentiles(nil); a != 0 || b != 0 || c != 0 {
		t.Errorf("none: %d / %d / %d", a, b, c)
	}
	if ds[0] != 100 {
		t.Error("percentiles sorted its input")
	}
}

// TestWriteTableColumns: one column per mode, a line per row.
func TestWriteTableColumns(t *testing.T) {
	r := &Result{Config: ReducedConfig(), Stats: newStats(), Outcomes: Outcomes{Tasks: map[string]map[string]int{}}}
	var b strings.Builder
	rb := &Result{Config: ReducedConfig(), Stats: newStats(), Outcomes: Outcomes{Tasks: map[string]map[string]int{}}}
	rb.Config.Mode = ModeBatch
	if err := WriteTable(&b, []*Result{r, rb}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "| metric | batching off | batching on (report batches) |\n") {
		t.Errorf("no header with the mode's column:\n%s", out)
	}
	if got, want := strings.Count(out, "\n| "), len(Rows(r))+1; got != want {
		t.Errorf("%d table lines, want %d (rows and header)", got, want)
	}
}
