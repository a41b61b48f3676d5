package offline

import (
	"fmt"
	"io"
	"sort"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
	"github.com/scoringsubnet/validatord/x/window"
)

// gasAgentKey identifies one agent on one chain.
type gasAgentKey struct{ chain, agent string }

// GasReplay is the state of one replay: the params, every agent and its pending prediction.
type GasReplay struct {
	gp      scoring.GasParams
	agents  map[gasAgentKey]window.GasAgent
	pending map[gasAgentKey]decimal.Decimal
	time    int64
	events  int
}

// GasWindowLine is the output for one agent at one closed window.
type GasWindowLine struct {
	Line          int         `json:"line"`
	Time          int64       `json:"time"`
	Chain         string      `json:"chain"`
	Agent         string      `json:"agent"`
	Window        uint64      `json:"window"`
	Estimate      *string     `json:"estimate"`
	Truth         string      `json:"truth"`
	Slot          GasSlotLine `json:"slot"`
	HistoryPoints int         `json:"history_points"`
	Score         *string     `json:"score"`
	Liveliness    *string     `json:"liveliness"`
}

// GasSlotLine is the slot a window close judged.
type GasSlotLine struct {
	Included    bool   `json:"included"`
	Overpayment string `json:"overpayment"`
	Fresh       bool   `json:"fresh"`
}

// Gas replays the events of r (params, predictions and truths by block time)
// through x/window's gas agents and x/scoring's gas score, starting from gp.
func Gas(r io.Reader, w io.Writer, gp scoring.GasParams) error {
	return Events(r, w, NewGasReplay(gp).Apply)
}

// NewGasReplay starts a replay with params gp (a params event may replace them).
func NewGasReplay(gp scoring.GasParams) *GasReplay {
	return &GasReplay{gp: gp, agents: map[gasAgentKey]window.GasAgent{}, pending: map[gasAgentKey]decimal.Decimal{}}
}

// Apply decodes and applies one event; a failed event changes nothing.
func (rp *GasReplay) Apply(n int, line []byte) ([]any, error) {
	obj, err := decodeObject(line)
	if err != nil {
		return nil, err
	}
	rp.events++
	if _, ok := obj["params"]; ok {
		return nil, rp.applyParams(obj)
	}
	if err := obj.only("time", "agent", "chain", "predict", "truth"); err != nil {
		return nil, err
	}
	t, err := obj.int64("time")
	if err != nil {
		return nil, err
	}
	if t < rp.time {
		return nil, fmt.Errorf("time: %d is before the previous event's %d", t, rp.time)
	}
	chain, err := optionalString(obj, "chain")
	if err != nil {
		return nil, err
	}
	_, isPredict := obj["predict"]
	_, isTruth := obj["truth"]
	switch {
	case isPredict && !isTruth:
		return nil, rp.applyPredict(obj, t, chain)
	case isTruth && !isPredict:
		return rp.applyTruth(obj, n, t, chain)
	}
	return nil, fmt.Errorf("an event has exactly one of \"predict\" or \"truth\" (or is {\"params\": …})")
}

func (rp *GasReplay) applyPredict(obj jsonObject, t int64, chain string) error {
	agent, err := obj.str("agent")
	if err != nil {
		return err
	}
	if agent == "" {
		return fmt.Errorf("agent: must not be empty")
	}
	p, err := obj.decimal("predict")
	if err != nil {
		return err
	}
	if p.Sign() < 0 {
		return fmt.Errorf("predict: %s must not be negative", p.String())
	}
	rp.time = t
	rp.pending[gasAgentKey{chain: chain, agent: agent}] = p
	return nil
}

func (rp *GasReplay) applyTruth(obj jsonObject, n int, t int64, chain string) ([]any, error) {
	if _, ok := obj["agent"]; ok {
		return nil, fmt.Errorf("agent: a truth closes the window for every agent of the chain; drop \"agent\"")
	}
	truth, err := obj.decimal("truth")
	if err != nil {
		return nil, err
	}
	keys := rp.chainAgents(chain)
	next := make(map[gasAgentKey]window.GasAgent, len(keys))
	var out []any
	for _, k := range keys {
		line, agent, err := rp.closeOne(k, n, t, truth)
		if err != nil {
			return nil, fmt.Errorf("agent %q: %w", k.agent, err)
		}
		next[k] = agent
		if line != nil {
			out = append(out, line)
		}
	}
	for _, k := range keys {
		rp.agents[k] = next[k]
		delete(rp.pending, k)
	}
	rp.time = t
	return out, nil
}

// chainAgents lists the chain's agents (with a state or a pending prediction), sorted by name.
func (rp *GasReplay) chainAgents(chain string) []gasAgentKey {
	seen := map[gasAgentKey]bool{}
	var keys []gasAgentKey
	add := func(k gasAgentKey) {
		if k.chain == chain && !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	for k := range rp.agents {
		add(k)
	}
	for k := range rp.pending {
		add(k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].agent < keys[j].agent })
	return keys
}

// closeOne closes the window for one agent and describes it.
func (rp *GasReplay) closeOne(k gasAgentKey, n int, t int64, truth decimal.Decimal) (*GasWindowLine, window.GasAgent, error) {
	a := rp.agents[k]
	var pred *decimal.Decimal
	if p, ok := rp.pending[k]; ok {
		pred = &p
	}
	next, res, err := a.Close(rp.gp, t, pred, truth)
	if err != nil || next.Closed == a.Closed {
		return nil, next, err
	}
	slot := next.Memory[len(next.Memory)-1]
	// the estimate judged: the fresh one, the carried one, or none (missed)
	var estimate *string
	if pred != nil || rp.gp.StalePrediction == scoring.StaleCarry {
		e := scoring.Format(next.Last)
		estimate = &e
	}
	line := &GasWindowLine{
		Line: n, Time: t, Chain: k.chain, Agent: k.agent, Window: next.Closed,
		Estimate: estimate, Truth: scoring.Format(truth),
		Slot:          GasSlotLine{Included: slot.Included, Overpayment: scoring.Format(slot.Overpayment), Fresh: slot.Fresh},
		HistoryPoints: len(next.History),
	}
	if res != nil {
		s, l := scoring.Format(res.Score), scoring.Format(res.Liveliness)
		line.Score, line.Liveliness = &s, &l
	}
	return line, next, nil
}

func (rp *GasReplay) applyParams(obj jsonObject) error {
	if err := obj.only("params"); err != nil {
		return err
	}
	if rp.events != 1 {
		return fmt.Errorf("params: must be the first event")
	}
	p, err := obj.object("params")
	if err != nil {
		return err
	}
	gp, err := gasParamsFrom(p)
	if err != nil {
		return err
	}
	rp.gp = gp
	return nil
}

// gasParamsFrom overrides the default gas params with the members present.
func gasParamsFrom(p jsonObject) (scoring.GasParams, error) {
	gp := scoring.DefaultGasParams()
	decs := []struct {
		name string
		dst  *decimal.Decimal
	}{
		{"beta", &gp.Beta}, {"w_inclusion", &gp.WInclusion}, {"w_inclusion_stability", &gp.WInclusionStability},
		{"w_overpayment", &gp.WOverpayment}, {"w_overpayment_stability", &gp.WOverpaymentStability}, {"w_liveliness", &gp.WLiveliness},
	}
	allowed := []string{"memory_size", "horizon_seconds", "stale_prediction"}
	for _, d := range decs {
		allowed = append(allowed, d.name)
	}
	if err := p.only(allowed...); err != nil {
		return gp, fmt.Errorf("params: %v", err)
	}
	if _, ok := p["memory_size"]; ok {
		m, err := p.int64("memory_size")
		if err != nil {
			return gp, err
		}
		if m < 1 || m > 1_000_000 {
			return gp, fmt.Errorf("memory_size: %d must be in [1, 1000000]", m)
		}
		gp.MemorySize = int(m)
	}
	if _, ok := p["horizon_seconds"]; ok {
		h, err := p.int64("horizon_seconds")
		if err != nil {
			return gp, err
		}
		gp.HorizonSeconds = h
	}
	if _, ok := p["stale_prediction"]; ok {
		v, err := p.str("stale_prediction")
		if err != nil {
			return gp, err
		}
		gp.StalePrediction = scoring.StalePolicy(v)
	}
	for _, d := range decs {
		if _, ok := p[d.name]; !ok {
			continue
		}
		v, err := p.decimal(d.name)
		if err != nil {
			return gp, err
		}
		*d.dst = v
	}
	return gp, gp.Validate()
}
