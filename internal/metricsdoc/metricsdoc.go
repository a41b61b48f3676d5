package metricsdoc

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// Check fails t unless the table rows of doc (a path) naming series that
// start with prefix are exactly the series g gathers.
func Check(t testing.TB, g prometheus.Gatherer, doc, prefix string) {
	t.Helper()
	fams, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	registered := make([]string, 0, len(fams))
	for _, f := range fams {
		registered = append(registered, f.GetName())
	}
	text, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `(" + regexp.QuoteMeta(prefix) + "[a-z0-9_]*)`")
	var rows []string
	for _, m := range row.FindAllStringSubmatch(string(text), -1) {
		rows = append(rows, m[1])
	}
	slices.Sort(registered)
	slices.Sort(rows)
	if !slices.Equal(registered, rows) {
		t.Fatalf("registered %s;\n%s documents %s", strings.Join(registered, ", "), doc, strings.Join(rows, ", "))
	}
}
