package main

import (
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"slices"
	"sort"
	"strings"

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

const waitCommitted = "wait until the transaction is in a block (sent again if it is lost on the way)"

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

func runTx(ctx context.Context, env Env, args []string) error {
	if len(args) > 0 && isHelp(args[0]) {
		fmt.Fprintf(env.Stdout, "usage: validatord tx <message> --from KEY [flags]   (validatord tx <message> -h lists its flags)\nmessages: %s\n"+
			"offline: validatord tx sign <file|-> --from KEY, validatord tx broadcast <file|->\n", strings.Join(txMessageNames(), ", "))
		return nil
	}
	if len(args) > 0 {
		if c, ok := txCommands[args[0]]; ok {
			return c(ctx, env, args[1:])
		}
	}
	name, rest, err := txMessageName(args)
	if err != nil {
		return err
	}
	if len(rest) > 0 && isHelp(rest[0]) && len(groupKinds(name)) > 0 {
		// `tx submit -h`: the message's usage with its kinds.
		fmt.Fprintf(env.Stdout, "usage: %s\n", groupUsage(name))
		return nil
	}
	m := txMessages[name]
	usage := "tx " + name + " --from KEY [flags]"
	fs := newFlags("tx " + name)
	common := defineTxFlags(fs, m.wait)
	var build func() (*subnetv1.Msg, error)
	var flow txFlow
	if m.flow != nil {
		flow = m.flow(fs)
	} else {
		build = m.define(fs)
	}
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
		if kinds := groupKinds(args[0]); len(kinds) > 0 {
			if len(args) >= 2 && isHelp(args[1]) {
				return args[0], args[1:], nil
			}
			if len(args) == 1 || strings.HasPrefix(args[1], "-") {
				return "", nil, fmt.Errorf("%s: missing kind; usage: %s", args[0], groupUsage(args[0]))
			}
			return "", nil, fmt.Errorf("%s: unknown kind %q, want one of %s; usage: %s", args[0], args[1], strings.Join(kinds, ", "), groupUsage(args[0]))
		}
	}
	names := strings.Join(txMessageNames(), ", ")
	if len(args) == 0 {
		return "", nil, fmt.Errorf("missing message; usage: validatord tx <message> --from KEY [flags]; messages: %s", names)
	}
	return "", nil, fmt.Errorf("unknown message %q; want one of: %s", args[0], names)
}

// groupKinds are the kinds of a message that has several (submit: workflow,
// arena, gas), sorted; none for other words.
func groupKinds(group string) []string {
	var kinds []string
	for _, n := range txMessageNames() {
		if k, ok := strings.CutPrefix(n, group+" "); ok {
			kinds = append(kinds, k)
		}
	}
	return kinds
}

// groupUsage is the usage line of a message with kinds.
func groupUsage(group string) string {
	return fmt.Sprintf("validatord tx %s %s --from KEY [flags]   (validatord tx %s <kind> -h lists its flags)",
		group, strings.Join(groupKinds(group), "|"), group)
}

// isHelp is an argument that asks for help.
func isHelp(a string) bool { return a == "-h" || a == "--help" || a == "help" }

// txMessageNames lists the messages of `tx`, sorted.
func txMessageNames() []string {
	names := make([]string, 0, len(txMessages))
	for n := range txMessages {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
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
