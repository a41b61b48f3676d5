package app

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/cockroachdb/datadriven"
	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Message builders of the scenario commands (scenario_test.go lists them).

// kind returns the bare word among words that the command carries (e.g. "workflow").
func (a args) kind(words ...string) (string, error) {
	for _, w := range words {
		if v, ok := a[w]; ok && v == "" {
			return w, nil
		}
	}
	return "", fmt.Errorf("one of %v is required", words)
}

func (s *scenario) postTask(a args) (string, error) {
	k, err := a.kind("workflow", "arena")
	if err != nil {
		return "", err
	}
	v, err := a.ints([]string{"steps", "criteria", "submit", "report"}, []int64{0, 0, 3, 3})
	if err != nil {
		return "", err
	}
	msg := client.PostArenaTask(&subnetv1.ArenaTask{CriteriaTotal: v[1],
		Category: a.str("category", ""), Difficulty: a.str("difficulty", ""), SubmissionBlocks: v[2], ReportBlocks: v[3]})
	if k == "workflow" {
		msg = client.PostWorkflowTask(&subnetv1.WorkflowTask{TotalSteps: v[0],
			MaxBudget: a.str("budget", "0"), MaxLatencySeconds: a.str("latency", "0"), SubmissionBlocks: v[2], ReportBlocks: v[3]})
	}
	return s.enqueue(a.str("by", "v1"), a, msg)
}

// crsOpening is what a reveal needs of its commit: the payload and the salt.
type crsOpening struct {
	payload *subnetv1.MsgSubmit
	salt    client.Salt
}

// crsKey names a (miner, target) pair: "m1 task 3" or "m1 evm chain 1 block 100".
func crsKey(label string, t client.Target) string { return label + " " + t.String() }

// crsPayload is the payload a commit or reveal command names for label:
// a workflow or arena artifact (the miner's own, or the shared one of
// artifact=), or a gas prediction.
func crsPayload(a args, label string) (*subnetv1.MsgSubmit, error) {
	k, err := a.kind("workflow", "arena", "gas")
	if err != nil {
		return nil, err
	}
	v, err := a.ints([]string{"task", "chain", "block"}, []int64{0, 1, 0})
	if err != nil {
		return nil, err
	}
	hash := artifact(label + "/" + strconv.FormatInt(v[0], 10))
	if l, ok := a["artifact"]; ok {
		hash = artifact("shared artifact " + l)
	}
	switch k {
	case "workflow":
		return client.WorkflowPayload(uint64(v[0]), hash), nil
	case "arena":
		return client.ArenaPayload(uint64(v[0]), hash), nil
	}
	return client.GasPayload(uint64(v[1]), uint64(v[2]), a.str("price", "0")), nil
}

// crsTarget is crsPayload and the payload's target.
func crsTarget(a args, label string) (*subnetv1.MsgSubmit, client.Target, error) {
	p, err := crsPayload(a, label)
	if err != nil {
		return nil, client.Target{}, err
	}
	t, err := client.TargetOf(p)
	return p, t, err
}

// eachMiner runs queue for every miner= or miners= label with its signer,
// its payload (crsPayload) and the payload's target, and joins the outputs.
func (s *scenario) eachMiner(a args, queue func(label string, sg *signer, p *subnetv1.MsgSubmit, target client.Target) (string, error)) (string, error) {
	labels := a.list("miner", "miners")
	if labels == nil {
		return "", fmt.Errorf("miner= or miners= is required")
	}
	var b strings.Builder
	for _, label := range labels {
		sg, err := s.signer(label)
		if err != nil {
			return "", err
		}
		p, target, err := crsTarget(a, label)
		if err != nil {
			return "", err
		}
		out, err := queue(label, sg, p, target)
		if err != nil {
			return "", err
		}
		b.WriteString(out)
	}
	return b.String(), nil
}

// commit queues one MsgCommit per miner and keeps its opening for the
// reveal (commitOf).
func (s *scenario) commit(a args) (string, error) {
	return s.eachMiner(a, func(label string, sg *signer, p *subnetv1.MsgSubmit, target client.Target) (string, error) {
		msg, ifRefused, err := s.commitOf(label, sg, p, target)
		if err != nil {
			return "", err
		}
		return s.enqueueThen(label, a, msg, ifRefused)
	})
}

// commitOf is label's MsgCommit of p, its opening kept for the reveal. A
// second commit of a pair leaves the kept opening as it is (the chain
// refuses it, code 28); ifRefused drops the opening of a refused commit
// after its block, so that a later commit of the pair can take its place.
func (s *scenario) commitOf(label string, sg *signer, p *subnetv1.MsgSubmit, target client.Target) (msg *subnetv1.Msg, ifRefused func(), err error) {
	// the uid of a key that is no miner (yet) is 0: the chain refuses its
	// commit before it opens anything
	msg, err = client.Commit(testChainID, sg.pub(), sg.uid, p, sg.salt(p))
	if err != nil {
		return nil, nil, err
	}
	if key := crsKey(label, target); s.openings[key].payload == nil {
		s.openings[key] = crsOpening{payload: p, salt: sg.salt(p)}
		ifRefused = func() { delete(s.openings, key) }
	}
	return msg, ifRefused, nil
}

// reveal queues one MsgReveal per miner (revealOf).
func (s *scenario) reveal(a args) (string, error) {
	return s.eachMiner(a, func(label string, sg *signer, p *subnetv1.MsgSubmit, target client.Target) (string, error) {
		msg, err := s.revealOf(a, label, sg, p, target)
		if err != nil {
			return "", err
		}
		return s.enqueue(label, a, msg)
	})
}

// revealOf is label's MsgReveal for target: the kept payload and salt of
// its commit, or, with price= or artifact=, the payload those name
// (another payload than the one committed: code 50); salt=wrong flips a
// bit of the salt.
func (s *scenario) revealOf(a args, label string, sg *signer, p *subnetv1.MsgSubmit, target client.Target) (*subnetv1.Msg, error) {
	salt := sg.salt(p)
	if o, ok := s.openings[crsKey(label, target)]; ok {
		salt = o.salt
		if _, price := a["price"]; !price {
			if _, art := a["artifact"]; !art {
				p = o.payload
			}
		}
	}
	switch w := a.str("salt", ""); w {
	case "":
	case "wrong":
		salt[0] ^= 1
	default:
		return nil, fmt.Errorf("salt=%q: only salt=wrong", w)
	}
	return client.Reveal(p, salt), nil
}

// crsBatch queues one MsgCommitBatch (commit) or MsgRevealBatch signed by
// miner=, an entry per input line in the arguments of a commit or reveal
// of one target ("gas chain=1 block=100 price=10", "workflow task=0",
// "gas chain=1 block=101 salt=wrong"), built as written, without the
// client's shape check, so that a scenario can send what the chain must
// refuse. A commit batch keeps its entries' openings for their reveals; a
// refused batch's are dropped after its block (a refused entry's stay).
func (s *scenario) crsBatch(td *datadriven.TestData, a args, commit bool) (string, error) {
	label := a.str("miner", "")
	if label == "" {
		return "", fmt.Errorf("miner= is required")
	}
	sg, err := s.signer(label)
	if err != nil {
		return "", err
	}
	lines, err := inputArgs(td)
	if err != nil {
		return "", err
	}
	cb, rb := &subnetv1.MsgCommitBatch{}, &subnetv1.MsgRevealBatch{}
	var drops []func()
	for _, la := range lines {
		p, target, err := crsTarget(la, label)
		if err != nil {
			return "", err
		}
		if !commit {
			m, err := s.revealOf(la, label, sg, p, target)
			if err != nil {
				return "", err
			}
			rb.Entries = append(rb.Entries, m.GetReveal())
			continue
		}
		m, drop, err := s.commitOf(label, sg, p, target)
		if err != nil {
			return "", err
		}
		cb.Entries = append(cb.Entries, m.GetCommit())
		if drop != nil {
			drops = append(drops, drop)
		}
	}
	if !commit {
		return s.enqueue(label, a, &subnetv1.Msg{Sum: &subnetv1.Msg_RevealBatch{RevealBatch: rb}})
	}
	return s.enqueueThen(label, a, &subnetv1.Msg{Sum: &subnetv1.Msg_CommitBatch{CommitBatch: cb}}, func() {
		for _, d := range drops {
			d()
		}
	})
}

// inputArgs reads the input's lines as commands with arguments: the
// command a bare word ("workflow"), blank lines skipped.
func inputArgs(td *datadriven.TestData) ([]args, error) {
	var out []args
	for _, line := range strings.Split(strings.TrimSpace(td.Input), "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		cmd, cargs, err := datadriven.ParseLine(line)
		if err != nil {
			return nil, err
		}
		la := args{cmd: ""}
		for _, c := range cargs {
			la[c.Key] = strings.Join(c.Vals, ",")
		}
		out = append(out, la)
	}
	return out, nil
}

func (s *scenario) report(a args) (string, error) {
	k, err := a.kind("workflow", "arena")
	if err != nil {
		return "", err
	}
	v, of, err := reportInts(a)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, sub := range a.list("sub", "subs") {
		id, err := strconv.ParseUint(sub, 10, 64)
		if err != nil {
			return "", fmt.Errorf("sub=%q: %v", sub, err)
		}
		out, err := s.queueEach(a, "validator", func(string) *subnetv1.Msg { return client.DuplicateOf(reportMsg(k, id, v, a), uint64(of)) })
		if err != nil {
			return "", err
		}
		b.WriteString(out)
	}
	return b.String(), nil
}

// reportInts reads a report's integer arguments, in the order reportMsg
// takes them, and its dup-of.
func reportInts(a args) (v []int64, dupOf int64, err error) {
	v, err = a.ints([]string{"sub", "steps", "retries", "timeouts", "failures", "tokens", "tools", "iterations", "passed", "retry-budget"},
		[]int64{0, 0, 0, 0, 0, 0, 0, 1, 0, 0})
	if err != nil {
		return nil, 0, err
	}
	dupOf, err = a.int("dup-of", 0)
	return v, dupOf, err
}

// reportBatch queues one MsgReportBatch signed by validator=, an entry per
// input line in report's arguments ("workflow sub=0 quality=0.9 ..."),
// without the client's shape check, so that a scenario can send what the
// chain must refuse.
func (s *scenario) reportBatch(td *datadriven.TestData, a args) (string, error) {
	b := &subnetv1.MsgReportBatch{}
	lines, err := inputArgs(td)
	if err != nil {
		return "", err
	}
	for _, la := range lines {
		k, err := la.kind("workflow", "arena")
		if err != nil {
			return "", err
		}
		v, of, err := reportInts(la)
		if err != nil {
			return "", err
		}
		m := client.DuplicateOf(reportMsg(k, uint64(v[0]), v, la), uint64(of))
		b.Entries = append(b.Entries, m.GetReport())
	}
	return s.enqueue(a.str("validator", "v1"), a, &subnetv1.Msg{Sum: &subnetv1.Msg_ReportBatch{ReportBatch: b}})
}

// truthBatch queues one MsgTruthBatch of the input's truths, one a line
// (truth chain= block= ts= and price= or the word empty), built as
// written, duplicates included.
func (s *scenario) truthBatch(td *datadriven.TestData, a args) (string, error) {
	b := &subnetv1.MsgTruthBatch{}
	lines, err := inputArgs(td)
	if err != nil {
		return "", err
	}
	for _, la := range lines {
		m, err := truthOf(la)
		if err != nil {
			return "", err
		}
		b.Entries = append(b.Entries, m.GetTruth())
	}
	return s.enqueue(a.str("validator", "v1"), a, &subnetv1.Msg{Sum: &subnetv1.Msg_TruthBatch{TruthBatch: b}})
}

// reportMsg builds a report of kind k from the integer arguments v (in the
// order report reads them) and the decimal arguments in a.
func reportMsg(k string, id uint64, v []int64, a args) *subnetv1.Msg {
	if k == "workflow" {
		return client.ReportWorkflow(id, &subnetv1.WorkflowMeasurement{
			OutputQuality: a.str("quality", "0"), StepsCompleted: v[1], Cost: a.str("cost", "0"),
			LatencySeconds: a.str("latency", "0"), Retries: v[2], DeclaredRetryBudget: v[9], Timeouts: v[3], HardFailures: v[4]})
	}
	return client.ReportArena(id, &subnetv1.ArenaMeasurement{TotalTokens: v[5], ToolCalls: v[6],
		Iterations: v[7], ExecutionTime: a.str("time", "0"), EstimatedCost: a.str("cost", "0"), CriteriaPassed: v[8]})
}

func (s *scenario) truth(a args) (string, error) {
	m, err := truthOf(a)
	if err != nil {
		return "", err
	}
	return s.queueEach(a, "validator", func(string) *subnetv1.Msg { return m })
}

// truthOf is the truth of chain= block= ts= and price=, or an empty truth
// when the word empty is given.
func truthOf(a args) (*subnetv1.Msg, error) {
	v, err := a.ints([]string{"chain", "block", "ts"}, []int64{1, 0, 0})
	if err != nil {
		return nil, err
	}
	if _, ok := a["empty"]; ok {
		return client.EmptyTruth(uint64(v[0]), uint64(v[1]), v[2]), nil
	}
	return msgTruth(uint64(v[0]), uint64(v[1]), a.str("price", "0"), v[2]), nil
}

// proposeParams queues by's params proposal of the patch in the input.
func (s *scenario) proposeParams(td *datadriven.TestData, a args) (string, error) {
	v, err := a.ints([]string{"activation", "expires"}, []int64{0, 0})
	if err != nil {
		return "", err
	}
	m := client.ProposeParams([]byte(strings.TrimSpace(td.Input)), v[0], v[1])
	return s.enqueue(a.str("by", "v1"), a, m)
}

// approve queues each validator's approval of the proposal.
func (s *scenario) approve(a args) (string, error) {
	id, err := a.int("proposal", 0)
	if err != nil {
		return "", err
	}
	return s.queueEach(a, "validator", func(string) *subnetv1.Msg { return client.Approve(uint64(id)) })
}

// query prints the answer flattened to sorted "path = value" lines.
func (s *scenario) query(td *datadriven.TestData, a args) (string, error) {
	if len(td.CmdArgs) == 0 {
		return "", fmt.Errorf("query needs a path")
	}
	path := td.CmdArgs[0].Key
	resp, err := s.node.app.Query(context.Background(), &abcitypes.RequestQuery{Path: path})
	if err != nil {
		return "", err
	}
	if resp.Code != wire.QueryOK {
		return fmt.Sprintf("code %d: %s\n", resp.Code, resp.Log), nil
	}
	dec := json.NewDecoder(strings.NewReader(string(resp.Value)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	var lines []string
	flatten("", v, &lines)
	prefixes := a.list("", "fields")
	var b strings.Builder
	for _, l := range lines {
		if keep(l, prefixes) {
			b.WriteString(l + "\n")
		}
	}
	return b.String(), nil
}

func keep(line string, prefixes []string) bool {
	if prefixes == nil {
		return true
	}
	for _, p := range prefixes {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// flatten writes one line per leaf. Lists of {name, value} (receipt fields)
// are keyed by name; other lists by index; object keys are sorted.
func flatten(path string, v any, out *[]string) {
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		// det: sorted
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			flatten(join(k), x[k], out)
		}
	case []any:
		for i, e := range x {
			if f, ok := e.(map[string]any); ok && len(f) == 2 && f["name"] != nil && f["value"] != nil {
				*out = append(*out, fmt.Sprintf("%s = %v", join(fmt.Sprint(f["name"])), f["value"]))
				continue
			}
			flatten(fmt.Sprintf("%s[%d]", path, i), e, out)
		}
	default:
		*out = append(*out, fmt.Sprintf("%s = %v", path, x))
	}
}
