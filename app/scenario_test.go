package app

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"

	"github.com/cockroachdb/datadriven"
	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// TestAppScenarios runs the scripts in testdata/scenarios/*.txt through
// InitChain, FinalizeBlock, Commit and Query of one in-memory App. Regenerate
// the expected output with `go test ./app -run TestAppScenarios -rewrite` and
// review every printed score against docs/scoring.md before accepting it.
//
// Commands (key=value; lists comma-separated; validators are v1..vN, miners
// any name; every tx command takes nonce= to sign at a given nonce):
//
//	init validators=N                starts a new chain (may be repeated)
//	     [powers=..] [tracks=workflow,arena,gas] [shares=..]
//	     [epoch=E] [warmup=W] [arena-warmup=W] [memory=M] [cap=C] [max-uids=U]
//	     [cutoff=B (every track's activity_cutoff_blocks)] [stale=miss|carry]
//	     [reveal=R (every track's reveal_blocks; default 1)]
//	     [margin=S (the gas track's commit_margin_seconds; default 2)]
//	     [gas-windows=C:K,... (chain.gas_windows: EVM chain C has windows of K blocks)]
//	     [upgrade-delay=D (governance.min_upgrade_delay_blocks)]
//	register miner=m1 | miners=m1,m2,...
//	deregister miner=m1 | miners=m1,m2,...
//	serve miner=m1                   a MsgServe of the input (the address as
//	<address>                        written, empty when there is no input)
//	post-task workflow [by=v1] steps= budget= latency= [submit=3] [report=3]
//	post-task arena [by=v1] criteria= [category=] [difficulty=] [submit=3] [report=3]
//	commit workflow|arena miner=|miners= task= [artifact=L]
//	commit gas miner=|miners= chain= block= price=
//	                                 a MsgCommit of the payload; the artifact is
//	                                 the miner's own unless artifact=L names one
//	                                 that miners can share. The harness keeps
//	                                 the payload and its (deterministic) salt
//	                                 per (miner, target) for the reveal
//	reveal workflow|arena|gas ...    the same arguments: the MsgReveal of the kept
//	       [salt=wrong]              payload and salt (price= or artifact= on the
//	                                 reveal replace the kept payload: a reveal of
//	                                 another payload); salt=wrong flips a salt bit.
//	                                 Without a kept commit: the payload of the
//	                                 arguments and its salt
//	report workflow validator=|validators= sub=|subs= quality= steps= cost= latency=
//	       [retries=0] [retry-budget=0] [timeouts=0] [failures=0]
//	report arena validator=|validators= sub=|subs= tokens= tools= iterations= time= cost= passed=
//	       either kind: [dup-of=ID] (duplicate_of: the earlier submission the
//	       reported one is a near-copy of; default 0, none)
//	report-batch validator=          one MsgReportBatch of the input's entries,
//	<workflow|arena sub= ... per line>  each line a report's arguments (one sub=);
//	                                 built as written, duplicates included
//	commit-batch miner=              one MsgCommitBatch of the input's entries,
//	<workflow|arena task= | gas ...  each line a commit's arguments of one
//	 per line>                       target; the openings kept as commit's
//	reveal-batch miner=              one MsgRevealBatch, each line a reveal's
//	<... per line>                   arguments (salt=wrong, price=, artifact=);
//	                                 both built as written, duplicates included
//	truth validator=|validators= chain= block= price= ts= [empty]
//	                                 empty: an empty truth (no price)
//	truth-batch validator=           one MsgTruthBatch of the input's entries,
//	<truth chain= block= price=|empty ts= per line>  each line a truth's
//	                                 arguments; built as written, duplicates included
//	propose-params by=v1 activation=H expires=H
//	<JSON merge patch>               a MsgParamsProposal of the patch (the input)
//	approve validator=|validators= proposal=N
//	garbage                          queue bytes that are not a transaction
//	block [time=unix seconds]        FinalizeBlock + Commit of the queued txs at the
//	                                 next height (default time 1700000000 + 6 × height);
//	                                 prints each tx's code and events, then the block's
//	query <path> [fields=p1,p2]      the JSON answer flattened to "path = value"
//	                                 lines, only those under the given prefixes
//	hash                             the committed app hash
func TestAppScenarios(t *testing.T) {
	datadriven.Walk(t, "testdata/scenarios", func(t *testing.T, path string) {
		s := &scenario{t: t, signers: make(map[string]*signer), openings: make(map[string]crsOpening)}
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			s.t = t
			out, err := s.run(td)
			if err != nil {
				return "error: " + err.Error() + "\n"
			}
			return out
		})
	})
}

// scenario is one script's chain and its queued transactions.
type scenario struct {
	t       *testing.T
	node    *node
	signers map[string]*signer // by label: "v1", "m1", ...
	queue   [][]byte
	// openings are the payload and salt of each (miner, target) commit
	// queued or accepted, for its reveal (crsKey).
	openings map[string]crsOpening
	// refused run after the block for each queued tx it refused (nil: nothing).
	refused []func()
}

func (s *scenario) run(td *datadriven.TestData) (string, error) {
	if td.Cmd != "init" && s.node == nil {
		return "", fmt.Errorf("%s before init", td.Cmd)
	}
	a := scenarioArgs(td)
	switch td.Cmd {
	case "init":
		return s.init(a)
	case "register":
		return s.queueEach(a, "miner", func(string) *subnetv1.Msg { return msgRegister() })
	case "deregister":
		return s.queueEach(a, "miner", func(string) *subnetv1.Msg { return client.DeregisterMiner() })
	case "serve":
		return s.enqueue(a.str("miner", ""), a, client.Serve(td.Input))
	case "blocks":
		return s.blocks(a)
	case "post-task":
		return s.postTask(a)
	case "commit":
		return s.commit(a)
	case "reveal":
		return s.reveal(a)
	case "report":
		return s.report(a)
	case "report-batch":
		return s.reportBatch(td, a)
	case "commit-batch":
		return s.crsBatch(td, a, true)
	case "reveal-batch":
		return s.crsBatch(td, a, false)
	case "truth":
		return s.truth(a)
	case "truth-batch":
		return s.truthBatch(td, a)
	case "propose-params":
		return s.proposeParams(td, a)
	case "approve":
		return s.approve(a)
	case "garbage":
		s.queue, s.refused = append(s.queue, []byte("not a transaction")), append(s.refused, nil)
		return fmt.Sprintf("queued tx %d\n", len(s.queue)-1), nil
	case "block":
		return s.block(a)
	case "query":
		return s.query(td, a)
	case "hash":
		return hex.EncodeToString(s.node.app.AppHash()) + "\n", nil
	}
	return "", fmt.Errorf("unknown command %q", td.Cmd)
}

// args are a command's key=value arguments; a bare word has the value "".
type args map[string]string

func scenarioArgs(td *datadriven.TestData) args {
	out := args{}
	for _, c := range td.CmdArgs {
		out[c.Key] = strings.Join(c.Vals, ",")
	}
	return out
}

func (a args) str(k, def string) string {
	if v, ok := a[k]; ok {
		return v
	}
	return def
}

func (a args) int(k string, def int64) (int64, error) {
	v, ok := a[k]
	if !ok {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s=%q: %v", k, v, err)
	}
	return n, nil
}

// ints reads several integer arguments at once (defaults where absent).
func (a args) ints(keys []string, defs []int64) ([]int64, error) {
	out := make([]int64, len(keys))
	for i, k := range keys {
		n, err := a.int(k, defs[i])
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

func (a args) list(one, many string) []string {
	if v, ok := a[many]; ok {
		return strings.Split(v, ",")
	}
	if v, ok := a[one]; ok {
		return []string{v}
	}
	return nil
}

func (s *scenario) init(a args) (string, error) {
	n, err := a.int("validators", 1)
	if err != nil {
		return "", err
	}
	g := genesis.DefaultGenesis()
	s.signers, s.openings = make(map[string]*signer), make(map[string]crsOpening)
	powers := make([]int64, n)
	for i := range powers {
		powers[i] = 10
	}
	if p, ok := a["powers"]; ok {
		for i, f := range strings.Split(p, ",") {
			if powers[i], err = strconv.ParseInt(f, 10, 64); err != nil {
				return "", fmt.Errorf("powers: %v", err)
			}
		}
	}
	for i := range powers {
		label := fmt.Sprintf("v%d", i+1)
		cons := testKey(fmt.Sprintf("consensus-%d", i)).Public().(ed25519.PublicKey)
		s.signers[label] = reporter(i)
		g.Validators = append(g.Validators, genesis.Validator{Name: label,
			Address: hex.EncodeToString(genesis.ConsensusAddress(cons)), PubKey: base64.StdEncoding.EncodeToString(cons),
			Power: powers[i], ReportKey: hex.EncodeToString(reporter(i).pub())})
	}
	if err := scenarioTracks(&g, a); err != nil {
		return "", err
	}
	if err := scenarioParams(&g, a); err != nil {
		return "", err
	}
	if err := g.Validate(); err != nil {
		return "", err
	}
	s.node, s.queue, s.refused = newNode(s.t, "", g), nil, nil
	return fmt.Sprintf("chain %s: %d validators, total power %d\n", testChainID, n, g.TotalPower()), nil
}

func scenarioTracks(g *genesis.AppState, a args) error {
	names := a.list("", "tracks")
	if names == nil {
		return nil
	}
	shares := a.list("", "shares")
	if shares == nil && len(names) == 1 {
		shares = []string{"1"}
	}
	if len(shares) != len(names) {
		return fmt.Errorf("tracks=%v needs shares= of the same length", names)
	}
	g.Tracks = nil
	for i, name := range names {
		d, err := decimal.NewFromString(shares[i])
		if err != nil {
			return err
		}
		g.Tracks = append(g.Tracks, testTrack(name, d))
	}
	return nil
}

func scenarioParams(g *genesis.AppState, a args) error {
	v, err := a.ints([]string{"epoch", "warmup", "memory", "max-uids", "arena-warmup"},
		[]int64{g.Window.EpochBlocks, int64(g.Window.WarmupTasks), int64(g.Gas.MemorySize), int64(g.Chain.MaxUIDs), int64(g.Window.ArenaWarmupTasks)})
	if err != nil {
		return err
	}
	g.Window.EpochBlocks, g.Window.WarmupTasks, g.Gas.MemorySize, g.Chain.MaxUIDs = v[0], int(v[1]), int(v[2]), int(v[3])
	g.Membership = testMembership(g.Chain.MaxUIDs)
	g.Window.ArenaWarmupTasks = int(v[4])
	if err := scenarioMembership(g, a); err != nil {
		return err
	}
	if c, ok := a["cutoff"]; ok {
		n, err := strconv.ParseInt(c, 10, 64)
		if err != nil {
			return err
		}
		for i := range g.Tracks {
			g.Tracks[i].ActivityCutoffBlocks = n
		}
	}
	if err := scenarioCommitParams(g, a); err != nil {
		return err
	}
	if sp, ok := a["stale"]; ok {
		g.Gas.StalePrediction = scoring.StalePolicy(sp)
	}
	if err := scenarioGasWindows(g, a); err != nil {
		return err
	}
	if g.Governance.MinUpgradeDelayBlocks, err = a.int("upgrade-delay", g.Governance.MinUpgradeDelayBlocks); err != nil {
		return err
	}
	if c, ok := a["cap"]; ok {
		if g.Window.Cap, err = decimal.NewFromString(c); err != nil {
			return err
		}
	}
	return nil
}

// scenarioGasWindows reads gas-windows=C:K,... into chain.gas_windows.
func scenarioGasWindows(g *genesis.AppState, a args) error {
	for _, f := range a.list("", "gas-windows") {
		c, k, ok := strings.Cut(f, ":")
		chain, err1 := strconv.ParseUint(c, 10, 64)
		blocks, err2 := strconv.ParseUint(k, 10, 64)
		if !ok || err1 != nil || err2 != nil {
			return fmt.Errorf("gas-windows: %q is not chain:blocks", f)
		}
		g.Chain.GasWindows = append(g.Chain.GasWindows, genesis.GasWindow{EvmChainID: chain, WindowBlocks: blocks})
	}
	return nil
}

// signer returns the signer of a label, creating a miner key on first use.
func (s *scenario) signer(label string) (*signer, error) {
	if sg, ok := s.signers[label]; ok {
		return sg, nil
	}
	if strings.HasPrefix(label, "v") {
		if _, err := strconv.Atoi(label[1:]); err == nil {
			return nil, fmt.Errorf("no validator %s", label)
		}
	}
	sg := newSigner("scenario-miner-" + label)
	s.signers[label] = sg
	return sg, nil
}

// enqueue signs msg for label (at nonce= when given) and queues it.
func (s *scenario) enqueue(label string, a args, msg *subnetv1.Msg) (string, error) {
	return s.enqueueThen(label, a, msg, nil)
}

// enqueueThen is enqueue; ifRefused runs after the block if the chain
// refuses the tx.
func (s *scenario) enqueueThen(label string, a args, msg *subnetv1.Msg, ifRefused func()) (string, error) {
	sg, err := s.signer(label)
	if err != nil {
		return "", err
	}
	var tx []byte
	if v, ok := a["nonce"]; ok {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return "", err
		}
		tx = sg.at(n, msg)
	} else {
		tx = sg.tx(s.t, msg)
	}
	s.queue, s.refused = append(s.queue, tx), append(s.refused, ifRefused)
	return fmt.Sprintf("queued tx %d: %s\n", len(s.queue)-1, label), nil
}

// queueEach queues one message per label of one=/many= (one + "s").
func (s *scenario) queueEach(a args, one string, msg func(label string) *subnetv1.Msg) (string, error) {
	labels := a.list(one, one+"s")
	if labels == nil {
		return "", fmt.Errorf("%s= or %ss= is required", one, one)
	}
	var b strings.Builder
	for _, l := range labels {
		out, err := s.enqueue(l, a, msg(l))
		if err != nil {
			return "", err
		}
		b.WriteString(out)
	}
	return b.String(), nil
}

// scenarioMembership sets the membership params a scenario names:
// immunity= (immunity_blocks), min-non-immune=, and windows= (chain
// max_submission_blocks and max_report_blocks, which bound the scoring lag
// that immunity must exceed).
func scenarioMembership(g *genesis.AppState, a args) error {
	v, err := a.ints([]string{"immunity", "min-non-immune", "windows"},
		[]int64{g.Membership.ImmunityBlocks, int64(g.Membership.MinNonImmune), g.Chain.MaxSubmissionBlocks})
	if err != nil {
		return err
	}
	g.Membership.ImmunityBlocks, g.Membership.MinNonImmune = v[0], uint32(v[1])
	if _, ok := a["windows"]; ok {
		g.Chain.MaxSubmissionBlocks, g.Chain.MaxReportBlocks = v[2], v[2]
	}
	return nil
}

// blocks runs n= empty blocks and prints their end-of-block events.
func (s *scenario) blocks(a args) (string, error) {
	n, err := a.int("n", 1)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for range n {
		out, err := s.block(args{})
		if err != nil {
			return "", err
		}
		if strings.Contains(out, "\n") && strings.Count(out, "\n") > 1 {
			b.WriteString(out)
		}
	}
	fmt.Fprintf(&b, "now at height %d\n", s.node.height)
	return b.String(), nil
}

func (s *scenario) block(a args) (string, error) {
	h := s.node.height + 1
	ts, err := a.int("time", 1_700_000_000+6*h)
	if err != nil {
		return "", err
	}
	txs, refused := s.queue, s.refused
	s.queue, s.refused = nil, nil
	resp, err := s.node.decide(h, time.Unix(ts, 0).UTC(), txs, []byte(fmt.Sprintf("scenario-%d", h)))
	if err != nil {
		return "", err
	}
	s.afterBlock(resp, refused)
	var b strings.Builder
	fmt.Fprintf(&b, "height %d time %d\n", h, ts)
	for i, r := range resp.TxResults {
		if r.Code == wire.CodeOK {
			fmt.Fprintf(&b, "tx %d: ok\n", i)
		} else {
			fmt.Fprintf(&b, "tx %d: code %d %s\n", i, r.Code, r.Log)
		}
		writeEvents(&b, "  ", r.Events)
	}
	if len(resp.Events) > 0 {
		b.WriteString("end of block:\n")
		writeEvents(&b, "  ", resp.Events)
	}
	return b.String(), nil
}

// afterBlock runs the hooks of the refused txs and gives each miner's
// signer the uid its registration got (its commits bind it).
func (s *scenario) afterBlock(resp *abcitypes.ResponseFinalizeBlock, refused []func()) {
	for i, r := range resp.TxResults {
		if r.Code != wire.CodeOK && refused[i] != nil {
			refused[i]()
		}
		uid, ok := eventAttr(r.Events, wire.EventMinerRegistered, "uid")
		if !ok {
			continue
		}
		pub, _ := eventAttr(r.Events, wire.EventMinerRegistered, "pubkey")
		n, err := strconv.ParseUint(uid, 10, 32)
		if err != nil {
			s.t.Fatalf("miner_registered uid=%q: %v", uid, err)
		}
		for _, sg := range s.signers {
			if hex.EncodeToString(sg.pub()) == pub {
				sg.uid, sg.hasUID = uint32(n), true
			}
		}
	}
}

// scenarioCommitParams sets every track's reveal_blocks (reveal=, default 1)
// and the gas track's commit_margin_seconds (margin=, else its default).
func scenarioCommitParams(g *genesis.AppState, a args) error {
	v, err := a.ints([]string{"reveal", "margin"}, []int64{testRevealBlocks, 0})
	if err != nil {
		return err
	}
	for i := range g.Tracks {
		g.Tracks[i].RevealBlocks = v[0]
		if _, ok := a["margin"]; ok && g.Tracks[i].Name == genesis.TrackGas {
			g.Tracks[i].CommitMarginSeconds = v[1]
		}
	}
	return nil
}

func writeEvents(b *strings.Builder, indent string, evs []abcitypes.Event) {
	for _, e := range evs {
		b.WriteString(indent + e.Type)
		for _, at := range e.Attributes {
			fmt.Fprintf(b, " %s=%s", at.Key, at.Value)
		}
		b.WriteString("\n")
	}
}
