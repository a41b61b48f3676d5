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
	text, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	check(t, Names(t, g), doc, string(text), prefix)
}

// CheckFirstSection is Check of the series names on the part of doc before
// its first "## " heading: for series whose prefix the later sections'
// series share (the node's validatord_ beside the daemons'
// validatord_<subsystem>_). It takes names rather than a Gatherer because
// a vector with no series yet gathers nothing.
func CheckFirstSection(t testing.TB, names []string, doc, prefix string) {
	t.Helper()
	text, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(text), "\n## ")
	check(t, names, doc, first, prefix)
}

// Names are the series names g gathers.
func Names(t testing.TB, g prometheus.Gatherer) []string {
	t.Helper()
	fams, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, 0, len(fams))
	for _, f := range fams {
		out = append(out, f.GetName())
	}
	return out
}

func check(t testing.TB, names []string, doc, text, prefix string) {
	t.Helper()
	registered := slices.Clone(names)
	row := regexp.MustCompile("(?m)^\\| `(" + regexp.QuoteMeta(prefix) + "[a-z0-9_]*)`")
	var rows []string
	for _, m := range row.FindAllStringSubmatch(text, -1) {
		rows = append(rows, m[1])
	}
	slices.Sort(registered)
	slices.Sort(rows)
	if !slices.Equal(registered, rows) {
		t.Fatalf("registered %s;\n%s documents %s", strings.Join(registered, ", "), doc, strings.Join(rows, ", "))
	}
}
