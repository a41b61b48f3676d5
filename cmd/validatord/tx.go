package main

import (
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// txCmd is `validatord tx`: a child per message (a group per message with
// kinds: tx submit workflow|arena|gas), and tx sign and tx broadcast.
var txCmd = &command{
	name:    "tx",
	summary: "sign and broadcast a transaction (register-miner, deregister-miner, serve, post-task, submit, reveal, report, truth, attest-metagraph, bind-hotkey)",
	usage:   "tx <message> --from KEY [flags]   (validatord tx <message> -h lists its flags)",
	about:   "offline: validatord tx sign <file|-> --from KEY, validatord tx broadcast <file|->",
	noun:    "message",
	list:    listLine,
}

func init() {
	root.add(txCmd)
	for _, e := range txMessages {
		parent, leaf := txCmd, e.name
		if group, kind, ok := strings.Cut(e.name, " "); ok {
			if parent = txCmd.child(group); parent == nil {
				parent = txCmd.add(&command{name: group, noun: "kind"})
			} else if parent.run != nil {
				// a message that is also a group (truth, truth batch): its
				// own flags run it, a kind's name goes to the kind
				parent.noun = "kind"
			}
			leaf = kind
		}
		name, m := e.name, e.m
		parent.add(&command{name: leaf, summary: m.summary, run: func(ctx context.Context, env Env, args []string) error {
			return runTxMessage(ctx, env, name, m, args)
		}})
	}
	for _, g := range txCmd.sub {
		if g.noun == "kind" && g.run == nil {
			g.summary = "one of its kinds: " + strings.Join(g.names(), ", ")
		}
	}
}

// txMessage is one message of `tx`: either a message sent as it is (define
// registers its flags and returns its builder) or a step of commit-reveal
// (flow: `submit …` and `reveal`, tx_submit.go and tx_reveal.go). wait is
// what --wait means for it.
type txMessage struct {
	summary string
	define  func(fs *flag.FlagSet) func() (*subnetv1.Msg, error)
	// defineIO is define for a message whose flags may read the command's
	// standard input (a file argument of "-").
	defineIO func(fs *flag.FlagSet, env Env) func() (*subnetv1.Msg, error)
	flow     func(fs *flag.FlagSet) txFlow
	wait     string
}

// txFlow runs a commit-reveal step: it checks its flags, opens the key's
// session with open, and returns what to print (nil when nothing was sent).
type txFlow func(ctx context.Context, open func() (*txSession, error), wait bool) (any, error)

const waitCommitted = "wait until the transaction is in a block (sent again if it is lost on the way)"

// txMessages are the messages of `tx`, named "message" or "message kind"
// as typed; init makes them nodes of txCmd.
var txMessages = []struct {
	name string
	m    txMessage
}{
	{"register-miner", txMessage{summary: "give the --from key a miner uid, paying the registration's proof of work (progress on stderr)", flow: defineRegisterMiner}},
	{"deregister-miner", txMessage{summary: "free the --from key's miner uid (its windows and gas agents are cleared)", define: defineDeregisterMiner}},
	{"serve", txMessage{summary: "announce the base URL where the --from key's daemon serves revealed artifacts, once every 10 blocks (miners)", define: defineServe}},
	{"post-task workflow", txMessage{summary: "open a workflow task (validators' report keys)", define: definePostWorkflow}},
	{"post-task arena", txMessage{summary: "open an arena task (validators' report keys)", define: definePostArena}},
	{"submit workflow", txMessage{summary: "commit to a workflow for a task, the salt kept in the key home (miners)", flow: submitFlow(one(defineWorkflowPayload)), wait: waitSubmit}},
	{"submit arena", txMessage{summary: "commit to an arena run for a task, the salt kept in the key home (miners)", flow: submitFlow(one(defineArenaPayload)), wait: waitSubmit}},
	{"submit gas", txMessage{summary: "commit to a gas price prediction for an EVM block, or for a run of blocks in one transaction (--blocks), the salts kept in the key home (miners)", flow: submitFlow(defineGasPayloads), wait: waitSubmit}},
	{"reveal", txMessage{summary: "reveal a stored commit: --task N, or --evm-chain-id C --evm-block B; --all: every one whose window is open, in batches (miners)", flow: defineReveal, wait: waitReveal}},
	{"report workflow", txMessage{summary: "report the measurements of a workflow submission (validators)", define: defineReportWorkflow}},
	{"report arena", txMessage{summary: "report the measurements of an arena submission (validators)", define: defineReportArena}},
	{"report batch", txMessage{summary: "report the measurements of many submissions in one transaction, JSON lines from --batch FILE or - (validators)", defineIO: defineReportBatch}},
	{"truth", txMessage{summary: "report an EVM block's minimum gas price and timestamp (validators)", define: defineTruth}},
	{"truth batch", txMessage{summary: "report the truths of many EVM blocks in one transaction, JSON lines from --batch FILE or - (validators)", defineIO: defineTruthBatch}},
	{"attest-metagraph", txMessage{summary: "attest the parent chain's metagraph at a parent block from a snapshot file (validators, mirror mode)", define: defineAttestMetagraph}},
	{"bind-hotkey", txMessage{summary: "bind the --from key to a parent uid with its hotkey's signature (miners, mirror mode)", define: defineBindHotkey}},
	{"propose validators", txMessage{summary: "propose validator set changes, in the order given (validators' report keys)", flow: proposeFlow(defineProposeValidators)}},
	{"propose params", txMessage{summary: "propose a JSON merge patch over the params from an activation height (validators' report keys)", flow: proposeFlow(defineProposeParams)}},
	{"approve", txMessage{summary: "approve an open proposal (validators' report keys)", define: defineApprove}},
}

// txFlags are the flags every message has.
type txFlags struct {
	from, home, node, chainID *string
	nonce                     *int64
	wait                      *bool
	dryRun, generateOnly      *bool
	output                    *outputFlag
}

func defineTxFlags(fs *flag.FlagSet, wait string) txFlags {
	if wait == "" {
		wait = waitCommitted
	}
	f := txFlags{
		from:         fs.String("from", "", "name of the signing key in <home>/keys (required; with --generate-only also a public key in hex)"),
		home:         homeFlag(fs),
		node:         nodeFlag(fs),
		chainID:      fs.String("chain-id", "", "chain id (default: ask the node)"),
		nonce:        fs.Int64("nonce", -1, "account nonce (default: ask the node for the next one)"),
		wait:         fs.Bool("wait", false, wait),
		dryRun:       fs.Bool("dry-run", false, "sign and ask the node what CheckTx would answer, keeping nothing (the app's simulate query): print its code and log, broadcast nothing"),
		generateOnly: fs.Bool("generate-only", false, "print the unsigned transaction as JSON (message, chain id, sender key, nonce) for tx sign; nothing is signed or sent"),
		output:       defineOutput(fs),
	}
	yes := fs.Bool("yes", false, "accepted for scripts written for Cosmos chains: there is no confirmation prompt")
	fs.BoolVar(yes, "y", false, "shorthand for --yes")
	return f
}

// check refuses flags that contradict each other.
func (f txFlags) check() error {
	if *f.dryRun && *f.generateOnly {
		return errors.New("--dry-run and --generate-only: give one, not both")
	}
	if *f.dryRun && *f.wait {
		return errors.New("--dry-run and --wait: a dry run sends nothing to wait for")
	}
	if *f.generateOnly && *f.wait {
		return errors.New("--generate-only and --wait: an unsigned transaction is not sent (send it with `tx sign`, then `tx broadcast --wait`)")
	}
	return nil
}

// defineOn defines m's flags on fs: a commit-reveal step's flow, or else
// the builder of its message.
func (m txMessage) defineOn(fs *flag.FlagSet, env Env) (build func() (*subnetv1.Msg, error), flow txFlow) {
	switch {
	case m.flow != nil:
		return nil, m.flow(fs)
	case m.defineIO != nil:
		return m.defineIO(fs, env), nil
	default:
		return m.define(fs), nil
	}
}

// runTxMessage is `tx <message>`: its flags, then the message built and
// sent (or its commit-reveal flow run).
func runTxMessage(ctx context.Context, env Env, name string, m txMessage, rest []string) error {
	usage := "tx " + name + " --from KEY [flags]"
	fs := newFlags("tx " + name)
	common := defineTxFlags(fs, m.wait)
	build, flow := m.defineOn(fs, env)
	pos, ok, err := parseFlags(env, fs, usage, rest)
	if !ok || err != nil {
		return err
	}
	if err := wantArgs(pos, 0, usage); err != nil {
		return err
	}
	if err := common.check(); err != nil {
		return err
	}
	r := &txRun{env: env, f: common, usage: usage}
	var out any
	if flow != nil {
		out, err = flow(ctx, r.open(ctx), *common.wait)
	} else {
		out, err = r.sendBuilt(ctx, build)
	}
	if out != nil {
		if perr := common.output.print(env.Stdout, out); perr != nil {
			return perr
		}
	}
	return oneLine(r.withUsage(err))
}

// txRun is one `tx <message>` run: its flags and usage line.
type txRun struct {
	env   Env
	f     txFlags
	usage string
}

// fromMissing is the --from flag as a missing flag, or nil when given.
func (r *txRun) fromMissing() *MissingFlagsError {
	if *r.f.from != "" {
		return nil
	}
	return &MissingFlagsError{Flags: []string{"from"}}
}

// withUsage adds the missing --from to a missing-flags error and the usage
// line to every missing-flags error.
func (r *txRun) withUsage(err error) error {
	var mf *MissingFlagsError
	if !errors.As(err, &mf) {
		return err
	}
	out := &MissingFlagsError{Flags: mf.Flags, Usage: r.usage}
	if r.fromMissing() != nil && !slices.Contains(mf.Flags, "from") {
		out.Flags = append([]string{"from"}, mf.Flags...)
	}
	return out
}

// open returns the flows' session opener.
func (r *txRun) open(ctx context.Context) func() (*txSession, error) {
	return func() (*txSession, error) { return r.openSession(ctx) }
}

// sendBuilt builds the message (every missing flag reported at once, --from
// among them) and sends it as the mode flags say.
func (r *txRun) sendBuilt(ctx context.Context, build func() (*subnetv1.Msg, error)) (any, error) {
	msg, err := build()
	if err == nil {
		if mf := r.fromMissing(); mf != nil {
			err = mf
		}
	}
	if err != nil {
		return nil, err
	}
	s, err := r.openSession(ctx)
	if err != nil {
		return nil, err
	}
	return s.send(ctx, msg, *r.f.wait)
}

// txMessageNamed is the message of txMessages named name (zero when none).
func txMessageNamed(name string) txMessage {
	for _, e := range txMessages {
		if e.name == name {
			return e.m
		}
	}
	return txMessage{}
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
	bz, err := hex.DecodeString(strings.TrimPrefix(v, "0x")) // either case
	if err != nil {
		return nil, fmt.Errorf("--%s: %q is not hex", name, v)
	}
	return bz, nil
}

// requireSet fails when required flags were not given: every one missing
// is named at once (a *MissingFlagsError).
func requireSet(fs *flag.FlagSet, names ...string) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var missing []string
	for _, n := range names {
		if !set[n] {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		return &MissingFlagsError{Flags: missing}
	}
	return nil
}
