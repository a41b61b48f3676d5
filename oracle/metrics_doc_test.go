package oracle

import (
	"os"
	"regexp"
	"slices"
	"testing"
)

// TestMetricsDocumented: docs/metrics.md names exactly the series the
// oracle registers.
func TestMetricsDocumented(t *testing.T) {
	m := NewMetrics()
	done := uint64(3)
	m.head(1, 5, &done)
	m.rpcError(1, "evm", KindTimeout)
	m.up(1, "evm", true)
	m.window(1, Report{Truth: Truth{Window: Window{First: 4, K: 1}}, Outcome: Sent, Head: 5})
	m.deepReorg(1)
	fams, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	var have []string
	for _, f := range fams {
		have = append(have, f.GetName())
	}
	doc, err := os.ReadFile("../docs/metrics.md")
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	for _, s := range regexp.MustCompile("(?m)^\\| `(validatord_oracle_[a-z_]+)`").FindAllSubmatch(doc, -1) {
		documented = append(documented, string(s[1]))
	}
	slices.Sort(have)
	slices.Sort(documented)
	if !slices.Equal(have, documented) {
		t.Fatalf("registered %v, docs/metrics.md documents %v", have, documented)
	}
}
