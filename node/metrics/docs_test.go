package metrics

import (
	"regexp"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/scoringsubnet/validatord/internal/metricsdoc"
)

var fqName = regexp.MustCompile(`fqName: "([a-z0-9_]+)"`)

// seriesNames are the names of every series m registers, from their
// descriptions (a vector without series yet included).
func seriesNames(t *testing.T, m *Metrics) []string {
	t.Helper()
	var out []string
	for _, c := range m.collectors() {
		ch := make(chan *prometheus.Desc, 4)
		go func() { c.Describe(ch); close(ch) }()
		for d := range ch {
			s := fqName.FindStringSubmatch(d.String())
			if s == nil {
				t.Fatalf("no name in %s", d)
			}
			out = append(out, s[1])
		}
	}
	return out
}

// TestDocsListEverySeries: docs/metrics.md's node table names exactly the
// series New registers.
func TestDocsListEverySeries(t *testing.T) {
	m, err := New(prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	metricsdoc.CheckFirstSection(t, seriesNames(t, m), "../../docs/metrics.md", Namespace+"_")
}
