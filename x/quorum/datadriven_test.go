package quorum

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/shopspring/decimal"
)

// TestScenarios runs the scripts in testdata/*.txt. Regenerate the expected
// output with `go test ./x/quorum -run TestScenarios -rewrite` and review the diff.
//
// Commands (arguments key=value; lists comma-separated):
//
//	power total=                            set the total voting power
//	rule deadline=                          set the deadline quorum (default 0.5)
//	report item= validator= power= values=  one validator's report on an item
//	deadline item=                          the item's report deadline has come
func TestScenarios(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		h := &harness{votes: map[string][]Vote{}, totalPower: 1, rule: DefaultRule()}
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			run, ok := ddCommands[td.Cmd]
			if !ok {
				t.Fatalf("%s: unknown command %q", td.Pos, td.Cmd)
			}
			out, err := run(h, args(td))
			if err != nil {
				return "error: " + err.Error() + "\n"
			}
			return out
		})
	})
}

type harness struct {
	votes      map[string][]Vote
	totalPower int64
	rule       Rule
}

var ddCommands = map[string]func(h *harness, a map[string]string) (string, error){
	"power":    (*harness).cmdPower,
	"rule":     (*harness).cmdRule,
	"report":   (*harness).cmdReport,
	"deadline": (*harness).cmdDeadline,
}

// args reads the key=value arguments of a command.
func args(td *datadriven.TestData) map[string]string {
	a := map[string]string{}
	for _, arg := range td.CmdArgs {
		a[arg.Key] = strings.Join(arg.Vals, ",")
	}
	return a
}

func (h *harness) cmdPower(a map[string]string) (string, error) {
	total, err := strconv.ParseInt(a["total"], 10, 64)
	if err != nil {
		return "", err
	}
	h.totalPower = total
	return fmt.Sprintf("total power %d\n", total), nil
}

func (h *harness) cmdRule(a map[string]string) (string, error) {
	q, err := decimal.NewFromString(a["deadline"])
	if err != nil {
		return "", err
	}
	r, err := NewRule(q)
	if err != nil {
		return "", err
	}
	h.rule = r
	return fmt.Sprintf("deadline quorum %s\n", r.DeadlineQuorum()), nil
}

func (h *harness) cmdReport(a map[string]string) (string, error) {
	power, err := strconv.ParseInt(a["power"], 10, 64)
	if err != nil {
		return "", err
	}
	var values []decimal.Decimal
	for _, s := range strings.Split(a["values"], ",") {
		v, err := decimal.NewFromString(s)
		if err != nil {
			return "", err
		}
		values = append(values, v)
	}
	item := a["item"]
	votes := append(append([]Vote(nil), h.votes[item]...), Vote{Validator: []byte(a["validator"]), Power: power, Values: values})
	out, err := Aggregate(votes, h.totalPower, false, h.rule)
	if err != nil {
		return "", err
	}
	h.votes[item] = votes
	return describeOutcome(item, out), nil
}

func (h *harness) cmdDeadline(a map[string]string) (string, error) {
	item := a["item"]
	out, err := Aggregate(h.votes[item], h.totalPower, true, h.rule)
	if err != nil {
		return "", err
	}
	return describeOutcome(item, out), nil
}

func describeOutcome(item string, o Outcome) string {
	var b strings.Builder
	fmt.Fprintf(&b, "item %s: %s reported=%d/%d reporters=%d", item, o.Status, o.ReportedPower, o.TotalPower, o.Reporters)
	for i, v := range o.Values {
		fmt.Fprintf(&b, " v%d=%s", i, v.String())
	}
	for _, f := range o.Unbracketed {
		fmt.Fprintf(&b, " unbracketed=v%d", f)
	}
	b.WriteString("\n")
	return b.String()
}
