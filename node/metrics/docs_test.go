package metrics

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"go.yaml.in/yaml/v3"

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

var seriesRef = regexp.MustCompile(`\bvalidatord_[a-z0-9_]+`)

// dashboardExprs are the query expressions of a Grafana dashboard: every
// "expr" and every "query"/"definition" string of a template variable.
func dashboardExprs(t *testing.T, path string) []string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if s, ok := e.(string); ok && (k == "expr" || k == "query" || k == "definition") {
					out = append(out, s)
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// alertBlocks are the yaml blocks of docs/metrics.md's alert section.
func alertBlocks(t *testing.T, path string) []string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(raw), "\n## Alert rules")
	if !ok {
		t.Fatalf("%s has no alert section", path)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var out []string
	for _, part := range strings.Split(section, "```yaml\n")[1:] {
		block, _, _ := strings.Cut(part, "```")
		out = append(out, block)
	}
	if len(out) == 0 {
		t.Fatalf("%s: no yaml block in the alert section", path)
	}
	for _, block := range out {
		var rules struct {
			Groups []struct {
				Name  string
				Rules []struct{ Alert, Expr string }
			}
		}
		if err := yaml.Unmarshal([]byte(block), &rules); err != nil {
			t.Fatalf("%s: alert rules: %v", path, err)
		}
		for _, g := range rules.Groups {
			for _, r := range g.Rules {
				if r.Alert == "" || r.Expr == "" {
					t.Errorf("%s: group %s has a rule without alert or expr", path, g.Name)
				}
			}
		}
	}
	return out
}

// TestDocsAlertsAndDashboard: every series the example alert rules and the
// Grafana dashboard name is one the node registers (a histogram's _bucket,
// _sum and _count included), and every panel has a query.
func TestDocsAlertsAndDashboard(t *testing.T) {
	m, err := New(prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	names := seriesNames(t, m)
	known := func(ref string) bool {
		for _, suffix := range []string{"", "_bucket", "_sum", "_count"} {
			if base, ok := strings.CutSuffix(ref, suffix); ok && slices.Contains(names, base) {
				return true
			}
		}
		return false
	}
	sources := map[string][]string{
		"../../docs/metrics.md":             alertBlocks(t, "../../docs/metrics.md"),
		"../../docs/grafana-dashboard.json": dashboardExprs(t, "../../docs/grafana-dashboard.json"),
	}
	for src, texts := range sources {
		refs := 0
		for _, text := range texts {
			for _, ref := range seriesRef.FindAllString(text, -1) {
				refs++
				if !known(ref) {
					t.Errorf("%s names %s, which the node does not register", src, ref)
				}
			}
		}
		if refs == 0 {
			t.Errorf("%s names no series", src)
		}
	}
}
