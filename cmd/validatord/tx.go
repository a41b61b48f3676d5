package main

import (
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/keyfile"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/scoring"
)

func init() {
	register(Command{Name: "tx", Summary: "sign and broadcast a transaction (register-miner, deregister-miner, post-task, submit, reveal, report, truth, attest-metagraph, bind-hotkey)", Run: runTx})
}

// txMessage is one message of `tx`: either a message sent as it is (define
// registers its flags and returns its builder) or a step of commit-reveal
// (flow: `submit …` and `reveal`, tx_submit.go and tx_reveal.go). wait is
// what --wait means for it.
type txMessage struct {
	summary string
	define  func(fs *flag.FlagSet) func() (*subnetv1.Msg, error)
	flow    func(fs *flag.FlagSet) txFlow
	wait    string
}

// txFlow runs a commit-reveal step: it checks its flags, opens the key's
// session with open, and returns what to print (nil when nothing was sent).
type txFlow func(ctx context.Context, open func() (*txSession, error), wait bool) (any, error)

const waitCommitted = "wait until the transaction is committed (broadcast_tx_commit)"

// txMessages are keyed by "message" or "message kind", as typed.
var txMessages = map[string]txMessage{
	"register-miner":     {summary: "give the --from key a miner uid, paying the registration's proof of work (progress on stderr)", flow: defineRegisterMiner},
	"deregister-miner":   {summary: "free the --from key's miner uid (its windows and gas agents are cleared)", define: defineDeregisterMiner},
	"post-task workflow": {summary: "open a workflow task (validators' report keys)", define: definePostWorkflow},
	"post-task arena":    {summary: "open an arena task (validators' report keys)", define: definePostArena},
	"submit workflow":    {summary: "commit to a workflow for a task, the salt kept in the key home (miners)", flow: submitFlow(defineWorkflowPayload), wait: waitSubmit},
	"submit arena":       {summary: "commit to an arena run for a task, the salt kept in the key home (miners)", flow: submitFlow(defineArenaPayload), wait: waitSubmit},
	"submit gas":         {summary: "commit to a gas price prediction for an EVM block, the salt kept in the key home (miners)", flow: submitFlow(defineGasPayload), wait: waitSubmit},
	"reveal":             {summary: "reveal a stored commit: --task N, or --evm-chain C --evm-block B (miners)", flow: defineReveal, wait: waitReveal},
	"report workflow":    {summary: "report the measurements of a workflow submission (validators)", define: defineReportWorkflow},
	"report arena":       {summary: "report the measurements of an arena submission (validators)", define: defineReportArena},
	"truth":              {summary: "report an EVM block's minimum gas price and timestamp (validators)", define: defineTruth},
	"attest-metagraph":   {summary: "attest the parent chain's metagraph at a parent block from a snapshot file (validators, mirror mode)", define: defineAttestMetagraph},
	"bind-hotkey":        {summary: "bind the --from key to a parent uid with its hotkey's signature (miners, mirror mode)", define: defineBindHotkey},
	"propose validators": {summary: "propose validator set changes, in the order given (validators' report keys)", flow: proposeFlow(defineProposeValidators)},
	"propose params":     {summary: "propose a JSON merge patch over the params from an activation height (validators' report keys)", flow: proposeFlow(defineProposeParams)},
	"approve":            {summary: "approve an open proposal (validators' report keys)", define: defineApprove},
}

// txFlags are the flags every message has.
type txFlags struct {
	from, home, node, chainID *string
	nonce                     *int64
	wait                      *bool
}

func defineTxFlags(fs *flag.FlagSet, wait string) txFlags {
	if wait == "" {
		wait = waitCommitted
	}
	return txFlags{
		from:    fs.String("from", "", "name of the signing key in <home>/keys (required)"),
		home:    homeFlag(fs),
		node:    nodeFlag(fs),
		chainID: fs.String("chain-id", "", "chain id (default: ask the node)"),
		nonce:   fs.Int64("nonce", -1, "account nonce (default: ask the node for the next one)"),
		wait:    fs.Bool("wait", false, wait),
	}
}

func runTx(ctx context.Context, env Env, args []string) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		fmt.Fprintf(env.Stdout, "usage: validatord tx <message> --from KEY [flags]   (validatord tx <message> -h lists its flags)\nmessages: %s\n", strings.Join(txMessageNames(), ", "))
		return nil
	}
	name, rest, err := txMessageName(args)
	if err != nil {
		return err
	}
	m := txMessages[name]
	fs := newFlags("tx " + name)
	common := defineTxFlags(fs, m.wait)
	var build func() (*subnetv1.Msg, error)
	var flow txFlow
	if m.flow != nil {
		flow = m.flow(fs)
	} else {
		build = m.define(fs)
	}
	pos, ok, err := parseFlags(env, fs, "tx "+name+" --from KEY [flags]", rest)
	if !ok || err != nil {
		return err
	}
	if err := wantArgs(pos, 0, "tx "+name+" --from KEY [flags]"); err != nil {
		return err
	}
	if flow != nil {
		return runFlow(ctx, env, common, flow)
	}
	msg, err := build()
	if err != nil {
		return err
	}
	res, err := sendTx(ctx, common, msg)
	var rejected *client.TxError
	if err != nil && !errors.As(err, &rejected) {
		return oneLine(err)
	}
	if perr := printJSON(env.Stdout, res); perr != nil {
		return perr
	}
	return err // nil, or the rejection whose result was printed
}

// runFlow runs a commit-reveal step; what it sent is printed even when it
// then failed.
func runFlow(ctx context.Context, env Env, f txFlags, flow txFlow) error {
	open := func() (*txSession, error) {
		s, err := openTx(ctx, f)
		if s != nil {
			s.stderr = env.Stderr
		}
		return s, err
	}
	out, err := flow(ctx, open, *f.wait)
	if out != nil {
		if perr := printJSON(env.Stdout, out); perr != nil {
			return perr
		}
	}
	return oneLine(err)
}

// txMessageName finds the message (and kind) at the start of args.
func txMessageName(args []string) (string, []string, error) {
	if len(args) >= 2 {
		if _, ok := txMessages[args[0]+" "+args[1]]; ok {
			return args[0] + " " + args[1], args[2:], nil
		}
	}
	if len(args) >= 1 {
		if _, ok := txMessages[args[0]]; ok {
			return args[0], args[1:], nil
		}
	}
	names := strings.Join(txMessageNames(), ", ")
	if len(args) == 0 {
		return "", nil, fmt.Errorf("missing message; usage: validatord tx <message> --from KEY [flags]; messages: %s", names)
	}
	got := strings.Join(args[:min(len(args), 2)], " ")
	return "", nil, fmt.Errorf("unknown message %q; want one of: %s", got, names)
}

// txMessageNames lists the messages of `tx`, sorted.
func txMessageNames() []string {
	names := make([]string, 0, len(txMessages))
	for n := range txMessages {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// txSession is a signing key on a node: its home, the node's client, the
// chain id and a signer (at --nonce when given).
type txSession struct {
	stderr io.Writer // progress lines (register-miner)
	home   string
	node   *client.Client
	signer *client.Signer
}

// openTx loads the key and finds the chain id (from the node unless given).
func openTx(ctx context.Context, f txFlags) (*txSession, error) {
	if *f.from == "" {
		return nil, fmt.Errorf("--from: a key name is required (see `validatord keys list --home %s`)", *f.home)
	}
	key, err := keyfile.Load(*f.home, *f.from)
	if err != nil {
		return nil, err
	}
	c, err := dialNode(*f.node)
	if err != nil {
		return nil, err
	}
	chainID := *f.chainID
	if chainID == "" {
		st, err := c.NodeStatus(ctx)
		if err != nil {
			return nil, err
		}
		chainID = st.ChainID
	}
	s := client.NewSigner(c, chainID, key)
	if *f.nonce >= 0 {
		s.FixNonce(uint64(*f.nonce))
	}
	return &txSession{home: *f.home, node: c, signer: s}, nil
}

// sendTx signs msg and broadcasts it; a refusal is a *client.TxError
// returned with the result.
func sendTx(ctx context.Context, f txFlags, msg *subnetv1.Msg) (client.TxResult, error) {
	s, err := openTx(ctx, f)
	if err != nil {
		return client.TxResult{}, err
	}
	tx, err := s.signer.Sign(ctx, msg)
	if err != nil {
		return client.TxResult{}, err
	}
	if *f.wait {
		return s.node.BroadcastCommit(ctx, tx)
	}
	return s.node.Broadcast(ctx, tx)
}

// decimalFlag is a flag holding a decimal in the canonical 18-place form.
type decimalFlag struct {
	name string
	val  *string
}

func newDecimal(fs *flag.FlagSet, name, def, usage string) decimalFlag {
	return decimalFlag{name: name, val: fs.String(name, def, usage+" (decimal, at most 18 places)")}
}

// get parses the flag; "" (unset, no default) is an error naming the flag.
func (d decimalFlag) get() (string, error) {
	if strings.TrimSpace(*d.val) == "" {
		return "", fmt.Errorf("--%s: required", d.name)
	}
	v, err := scoring.Parse(*d.val)
	if err != nil {
		return "", fmt.Errorf("--%s: %w", d.name, err)
	}
	return scoring.Format(v), nil
}

// decimals gets several decimal flags in order.
func decimals(ds ...decimalFlag) ([]string, error) {
	out := make([]string, len(ds))
	for i, d := range ds {
		v, err := d.get()
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// hexFlag gets a required hex byte string.
func hexFlag(name, v string) ([]byte, error) {
	if v == "" {
		return nil, fmt.Errorf("--%s: required (hex)", name)
	}
	bz, err := hex.DecodeString(strings.TrimPrefix(v, "0x"))
	if err != nil {
		return nil, fmt.Errorf("--%s: %q is not hex", name, v)
	}
	return bz, nil
}

// requireSet fails when a required integer flag was not given.
func requireSet(fs *flag.FlagSet, names ...string) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, n := range names {
		if !set[n] {
			return fmt.Errorf("--%s: required", n)
		}
	}
	return nil
}
