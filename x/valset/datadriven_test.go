package valset

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// TestScenarios runs the scripts in testdata/scenarios/*.txt. Regenerate the expected
// output with `go test ./x/valset -run TestScenarios -rewrite` and review
// the diff.
//
// Keys derive from names (key("c:"+name), key("r:"+name)); a rotated
// report key from its label. Commands:
//
//	set                 the current set, one name:power a line; the queue
//	                    and the miners empty
//	queue               append changes, one a line: add NAME POWER,
//	                    power NAME POWER, remove NAME, rotate NAME LABEL
//	miner label=        register a miner key
//	slash name= [off]   slash NAME (the switch on unless off): its change
//	                    heads the queue
//	step                one block: budget, outcomes, updates, set, queue
//	drain               step until the queue is empty (at most 50 blocks)
func TestScenarios(t *testing.T) {
	datadriven.Walk(t, "testdata/scenarios", func(t *testing.T, path string) {
		h := &scenario{}
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			out, err := h.run(t, td)
			if err != nil {
				return "error: " + err.Error() + "\n"
			}
			return out
		})
	})
}

type scenario struct {
	set    Set
	queue  []Change
	miners minerSet
	names  []string // every name seen, to print updates by name
}

func (h *scenario) run(t *testing.T, td *datadriven.TestData) (string, error) {
	switch td.Cmd {
	case "set":
		var vals []Validator
		for _, line := range lines(td.Input) {
			name, p, _ := strings.Cut(line, ":")
			power, err := strconv.ParseInt(p, 10, 64)
			if err != nil {
				return "", err
			}
			vals = append(vals, val(name, power))
			h.names = append(h.names, name)
		}
		s, err := NewSet(vals)
		if err != nil {
			return "", err
		}
		h.set, h.queue, h.miners = s, nil, nil
		return byName(s) + "\n", nil
	case "queue":
		for _, line := range lines(td.Input) {
			c, err := h.parseChange(line)
			if err != nil {
				return "", err
			}
			h.queue = append(h.queue, c)
		}
		return h.queueString(), nil
	case "miner":
		var label string
		td.ScanArgs(t, "label", &label)
		h.miners = append(h.miners, key(label))
		return "ok\n", nil
	case "slash":
		var name string
		td.ScanArgs(t, "name", &name)
		c, ok, err := Slash(h.set, Address(key("c:"+name)), !td.HasArg("off"))
		if err != nil {
			return "", err
		}
		if !ok {
			return "switch off: evidence recorded, no change\n", nil
		}
		h.queue = append([]Change{c}, h.queue...)
		return h.queueString(), nil
	case "step":
		return h.step(), nil
	case "drain":
		var b strings.Builder
		for n := 1; len(h.queue) > 0; n++ {
			if n > 50 {
				return "", fmt.Errorf("queue not drained in 50 blocks")
			}
			fmt.Fprintf(&b, "block %d: ", n)
			b.WriteString(h.step())
		}
		return b.String(), nil
	}
	return "", fmt.Errorf("unknown command %q", td.Cmd)
}

func (h *scenario) step() string {
	res := Step(h.set, h.queue, h.miners)
	var b strings.Builder
	fmt.Fprintf(&b, "budget %d, moved %d\n", res.Budget, res.Moved)
	for _, o := range res.Outcomes {
		fmt.Fprintf(&b, "  %s %s", o.Status, h.changeString(o.Change))
		if o.Err != nil {
			fmt.Fprintf(&b, ": %v", o.Err)
		}
		b.WriteString("\n")
	}
	var ups []string
	for _, u := range res.Updates {
		ups = append(ups, fmt.Sprintf("%s:%d", h.nameOf(u.PubKey), u.Power))
	}
	fmt.Fprintf(&b, "  updates [%s]\n  set %s (total %d)\n", strings.Join(ups, " "), byName(res.Set), res.Set.TotalPower())
	h.set, h.queue = res.Set, res.Remaining
	b.WriteString(h.queueString())
	return b.String()
}

func (h *scenario) parseChange(line string) (Change, error) {
	f := strings.Fields(line)
	num := func(i int) int64 {
		if i >= len(f) {
			return 0
		}
		n, _ := strconv.ParseInt(f[i], 10, 64)
		return n
	}
	if len(f) < 2 {
		return Change{}, fmt.Errorf("bad change %q", line)
	}
	switch f[0] {
	case "add":
		h.names = append(h.names, f[1])
		return AddValidator(val(f[1], num(2))), nil
	case "power":
		return SetPower(ByName(f[1]), num(2)), nil
	case "remove":
		return Remove(ByName(f[1])), nil
	case "rotate":
		if len(f) < 3 {
			return Change{}, fmt.Errorf("rotate needs a label")
		}
		return RotateReportKey(ByName(f[1]), key(f[2])), nil
	}
	return Change{}, fmt.Errorf("bad change %q", line)
}

func (h *scenario) nameOf(pk []byte) string {
	for _, n := range h.names {
		if bytes.Equal(key("c:"+n), pk) {
			return n
		}
	}
	return hexOf(pk)
}

// changeString prints a change with names for keys.
func (h *scenario) changeString(c Change) string {
	target := c.Target.Name
	if c.Target.PubKey != nil {
		target = h.nameOf(c.Target.PubKey)
	}
	switch c.Kind {
	case KindAdd:
		return fmt.Sprintf("add %s %d", c.Validator.Name, c.Validator.Power)
	case KindSetPower:
		return fmt.Sprintf("power %s %d", target, c.Power)
	case KindRemove:
		return "remove " + target
	case KindRotateReportKey:
		return "rotate " + target
	}
	return c.String()
}

func (h *scenario) queueString() string {
	var items []string
	for _, c := range h.queue {
		items = append(items, h.changeString(c))
	}
	return "  queue [" + strings.Join(items, ", ") + "]\n"
}

func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}
