package window

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

// TestScenarios runs the scripts in testdata/*.txt. Regenerate the expected
// output with `go test ./x/window -run TestScenarios -rewrite` and review the diff.
//
// Commands (arguments key=value; lists comma-separated):
//
//	params window= warmup= arena-warmup= k= min= epoch= cap= burn=
//	                                                     set window params (any subset)
//	gas-params memory= horizon= [history-max=] [stale=]  set gas params (any subset), the history cap
//	                                                     and the stale-prediction policy (miss, carry)
//	push miner= score= [repeat=] [height=]               push a score (repeat times) at a height
//	                                                     (default: the miner's last)
//	window miner=                                        print a miner's window
//	active miner= height= cutoff=                        whether the miner is active (Active) and
//	                                                     its arena aggregate (Warmed(arena-warmup))
//	gas-close agent= time= min= [pred=]                  close a block window for an agent
//	baseline-block task=                                 score the body's submissions against the
//	                                                     baseline as it stood, then add them;
//	                                                     body lines: tokens= calls= iters= time= cost= passed= total=
//	epoch height=                                        body lines: track= share= [scores=uid:score,...];
//	                                                     without scores the miners' window aggregates count
func TestScenarios(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		h := newHarness()
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			run, ok := ddCommands[td.Cmd]
			if !ok {
				t.Fatalf("%s: unknown command %q", td.Pos, td.Cmd)
			}
			out, err := run(h, td)
			if err != nil {
				return "error: " + err.Error() + "\n"
			}
			return out
		})
	})
}

type harness struct {
	p         Params
	gp        scoring.GasParams
	histMax   int
	miners    map[uint16]MinerWindow
	agents    map[string]GasAgent
	baselines map[string]Baseline
}

func newHarness() *harness {
	return &harness{
		p: DefaultParams(), gp: scoring.DefaultGasParams(), histMax: DefaultGasHistoryMax,
		miners: map[uint16]MinerWindow{}, agents: map[string]GasAgent{},
		baselines: map[string]Baseline{},
	}
}

type ddCommand func(h *harness, td *datadriven.TestData) (string, error)

var ddCommands = map[string]ddCommand{
	"params":         (*harness).cmdParams,
	"gas-params":     (*harness).cmdGasParams,
	"push":           (*harness).cmdPush,
	"window":         (*harness).cmdWindow,
	"active":         (*harness).cmdActive,
	"gas-close":      (*harness).cmdGasClose,
	"baseline-block": (*harness).cmdBaselineBlock,
}

// args reads key=value arguments of a command (or of a body line).
type args map[string]string

func cmdArgs(td *datadriven.TestData) args {
	a := args{}
	for _, arg := range td.CmdArgs {
		a[arg.Key] = strings.Join(arg.Vals, ",")
	}
	return a
}

func lineArgs(line string) args {
	a := args{}
	for _, f := range strings.Fields(line) {
		k, v, _ := strings.Cut(f, "=")
		a[k] = v
	}
	return a
}

func (a args) int(key string, def int64) (int64, error) {
	v, ok := a[key]
	if !ok {
		return def, nil
	}
	return strconv.ParseInt(v, 10, 64)
}

// ints reads required integer arguments.
func (a args) ints(keys ...string) ([]int64, error) {
	out := make([]int64, len(keys))
	for i, k := range keys {
		if _, ok := a[k]; !ok {
			return nil, fmt.Errorf("missing %s=", k)
		}
		v, err := a.int(k, 0)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func (a args) dec(key string) (decimal.Decimal, error) {
	v, ok := a[key]
	if !ok {
		return decimal.Decimal{}, fmt.Errorf("missing %s=", key)
	}
	return scoring.Parse(v)
}

func f(x decimal.Decimal) string { return scoring.Format(x) }

func (h *harness) cmdParams(td *datadriven.TestData) (string, error) {
	a := cmdArgs(td)
	ints := []struct {
		key string
		dst *int
	}{{"window", &h.p.WindowSize}, {"warmup", &h.p.WarmupTasks}, {"arena-warmup", &h.p.ArenaWarmupTasks},
		{"k", &h.p.BaselineK}, {"min", &h.p.BaselineMin}}
	for _, x := range ints {
		v, err := a.int(x.key, int64(*x.dst))
		if err != nil {
			return "", err
		}
		*x.dst = int(v)
	}
	var err error
	if h.p.EpochBlocks, err = a.int("epoch", h.p.EpochBlocks); err != nil {
		return "", err
	}
	burn, err := a.int("burn", int64(h.p.BurnUID))
	if err != nil {
		return "", err
	}
	h.p.BurnUID = uint16(burn)
	if _, ok := a["cap"]; ok {
		if h.p.Cap, err = a.dec("cap"); err != nil {
			return "", err
		}
	}
	if err := h.p.Validate(); err != nil {
		return "", err
	}
	return fmt.Sprintf("window=%d warmup=%d arena-warmup=%d k=%d min=%d epoch=%d cap=%s burn=%d\n", h.p.WindowSize, h.p.WarmupTasks,
		h.p.ArenaWarmupTasks, h.p.BaselineK, h.p.BaselineMin, h.p.EpochBlocks, h.p.Cap.String(), h.p.BurnUID), nil
}

func (h *harness) cmdGasParams(td *datadriven.TestData) (string, error) {
	a := cmdArgs(td)
	m, err := a.int("memory", int64(h.gp.MemorySize))
	if err != nil {
		return "", err
	}
	h.gp.MemorySize = int(m)
	if h.gp.HorizonSeconds, err = a.int("horizon", h.gp.HorizonSeconds); err != nil {
		return "", err
	}
	hm, err := a.int("history-max", int64(h.histMax))
	if err != nil {
		return "", err
	}
	h.histMax = int(hm)
	if v, ok := a["stale"]; ok {
		h.gp.StalePrediction = scoring.StalePolicy(v)
	}
	out := fmt.Sprintf("memory=%d horizon=%d", h.gp.MemorySize, h.gp.HorizonSeconds)
	if h.histMax != DefaultGasHistoryMax {
		out += fmt.Sprintf(" history-max=%d", h.histMax)
	}
	if h.gp.StalePrediction != scoring.StaleMiss {
		out += " stale=" + string(h.gp.StalePrediction)
	}
	return out + "\n", h.gp.Validate()
}

func (h *harness) cmdPush(td *datadriven.TestData) (string, error) {
	a := cmdArgs(td)
	uid, err := a.int("miner", -1)
	if err != nil || uid < 0 || uid > 65535 {
		return "", fmt.Errorf("bad miner=%s", a["miner"])
	}
	score, err := a.dec("score")
	if err != nil {
		return "", err
	}
	repeat, err := a.int("repeat", 1)
	if err != nil {
		return "", err
	}
	w := h.miners[uint16(uid)]
	height, err := a.int("height", w.LastHeight)
	if err != nil {
		return "", err
	}
	for i := int64(0); i < repeat; i++ {
		if w, err = w.PushAt(h.p, height, score); err != nil {
			return "", err
		}
	}
	h.miners[uint16(uid)] = w
	return h.describeMiner(uint16(uid)), nil
}

func (h *harness) cmdWindow(td *datadriven.TestData) (string, error) {
	uid, err := cmdArgs(td).int("miner", -1)
	if err != nil || uid < 0 || uid > 65535 {
		return "", fmt.Errorf("bad miner")
	}
	w := h.miners[uint16(uid)]
	var b strings.Builder
	b.WriteString(h.describeMiner(uint16(uid)))
	for i, s := range w.Scores {
		fmt.Fprintf(&b, "  [%d] %s\n", i, f(s))
	}
	return b.String(), nil
}

func (h *harness) describeMiner(uid uint16) string {
	w := h.miners[uid]
	return fmt.Sprintf("miner %d: entries=%d seen=%d last=%d mean=%s aggregate=%s\n", uid, len(w.Scores), w.TasksSeen, w.LastHeight,
		f(w.Mean()), f(w.Aggregate(h.p)))
}

func (h *harness) cmdActive(td *datadriven.TestData) (string, error) {
	a := cmdArgs(td)
	v, err := a.ints("miner", "height", "cutoff")
	if err != nil {
		return "", err
	}
	w := h.miners[uint16(v[0])]
	return fmt.Sprintf("miner %d at %d (last %d, cutoff %d): active=%t arena-aggregate=%s\n", v[0], v[1], w.LastHeight, v[2],
		Active(w.LastHeight, v[1], v[2]), f(w.Warmed(h.p.ArenaWarmupTasks))), nil
}

func (h *harness) cmdGasClose(td *datadriven.TestData) (string, error) {
	a := cmdArgs(td)
	tm, err := a.int("time", 0)
	if err != nil {
		return "", err
	}
	minPrice, err := a.dec("min")
	if err != nil {
		return "", err
	}
	var p *decimal.Decimal
	if _, ok := a["pred"]; ok {
		v, err := a.dec("pred")
		if err != nil {
			return "", err
		}
		p = &v
	}
	agent := h.agents[a["agent"]]
	next, res, err := agent.CloseCapped(h.gp, h.histMax, tm, p, minPrice)
	if err != nil {
		return "", err
	}
	h.agents[a["agent"]] = next
	return describeAgent(a["agent"], next, res), nil
}

func describeAgent(name string, a GasAgent, res *scoring.GasResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "agent %s: closed=%d memory=%d/", name, a.Closed, len(a.Memory))
	for _, s := range a.Memory {
		switch {
		case !s.Included && !s.Fresh:
			b.WriteString(" -")
		case !s.Included:
			b.WriteString(" miss")
		case s.Fresh:
			fmt.Fprintf(&b, " +%s", s.Overpayment.String())
		default:
			fmt.Fprintf(&b, " ~%s", s.Overpayment.String())
		}
	}
	b.WriteString("\nhistory:")
	for _, p := range a.History {
		fmt.Fprintf(&b, " t=%d(%s,%s)", p.Time, p.InclusionRate.String(), p.AvgOverpayment.String())
	}
	if res == nil {
		b.WriteString("\nscore: absent\n")
		return b.String()
	}
	fmt.Fprintf(&b, "\nscore: %s points=%d liveliness=%s\n", f(res.Score), res.Points, f(res.Liveliness))
	return b.String()
}

func (h *harness) cmdBaselineBlock(td *datadriven.TestData) (string, error) {
	task := cmdArgs(td)["task"]
	var batch []scoring.ArenaSubmission
	for _, line := range strings.Split(strings.TrimSpace(td.Input), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		s, err := parseSubmission(lineArgs(line))
		if err != nil {
			return "", err
		}
		batch = append(batch, s)
	}
	b := h.baselines[task]
	var out strings.Builder
	before := b.Stats(scoring.DefaultArenaBaseline())
	out.WriteString(describeBaseline("before", len(b.Recent), before))
	for i, s := range batch {
		r, err := scoring.ScoreArena(scoring.DefaultArenaParams(), s, before, "", "")
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&out, "  sub %d tokens=%d: overall=%s\n", i, s.TotalTokens, r.Overall.StringFixed(2))
	}
	next, err := b.Add(h.p, batch)
	if err != nil {
		return "", err
	}
	h.baselines[task] = next
	out.WriteString(describeBaseline("after", len(next.Recent), next.Stats(scoring.DefaultArenaBaseline())))
	return out.String(), nil
}

func parseSubmission(a args) (scoring.ArenaSubmission, error) {
	var s scoring.ArenaSubmission
	var err error
	ints := []struct {
		key string
		dst *int64
		def int64
	}{{"tokens", &s.TotalTokens, 0}, {"calls", &s.ToolCalls, 0}, {"iters", &s.Iterations, 1}, {"passed", &s.CriteriaPassed, 0}, {"total", &s.CriteriaTotal, 0}}
	for _, x := range ints {
		if *x.dst, err = a.int(x.key, x.def); err != nil {
			return s, err
		}
	}
	s.ExecutionTime, s.EstimatedCost = scoring.Zero, scoring.Zero
	if _, ok := a["time"]; ok {
		if s.ExecutionTime, err = a.dec("time"); err != nil {
			return s, err
		}
	}
	if _, ok := a["cost"]; ok {
		if s.EstimatedCost, err = a.dec("cost"); err != nil {
			return s, err
		}
	}
	return s, nil
}

func describeBaseline(when string, kept int, b scoring.ArenaBaseline) string {
	return fmt.Sprintf("%s: kept=%d count=%d tokens min/q25/median/q75/max=%s/%s/%s/%s/%s calls median=%s\n", when, kept,
		b.SubmissionCount, b.MinTokens.String(), b.Q25Tokens.String(), b.MedianTokens.String(), b.Q75Tokens.String(),
		b.MaxTokens.String(), b.MedianToolCalls.String())
}
