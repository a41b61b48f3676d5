package main

import (
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"sort"
	"strings"

	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/keyfile"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/scoring"
)

func init() {
	register(Command{Name: "tx", Summary: "sign and broadcast a transaction (register-miner, post-task, submit, report, truth)", Run: runTx})
}

const txUsage = "tx <message> [kind] --from KEY [--home DIR] [--node ADDR] [--chain-id ID] [--nonce N] [--wait] [message flags]"

// txMessage defines the flags of one message and builds it from them.
type txMessage struct {
	summary string
	define  func(fs *flag.FlagSet) func() (*subnetv1.Msg, error)
}

// txMessages are keyed by "message" or "message kind", as typed.
var txMessages = map[string]txMessage{
	"register-miner":     {"give the --from key the next free miner uid", defineRegisterMiner},
	"post-task workflow": {"open a workflow task (validators' report keys)", definePostWorkflow},
	"post-task arena":    {"open an arena task (validators' report keys)", definePostArena},
	"submit workflow":    {"submit a workflow for a task (miners)", defineSubmitWorkflow},
	"submit arena":       {"submit an arena run for a task (miners)", defineSubmitArena},
	"submit gas":         {"predict the gas price of an EVM block (miners)", defineSubmitGas},
	"report workflow":    {"report the measurements of a workflow submission (validators)", defineReportWorkflow},
	"report arena":       {"report the measurements of an arena submission (validators)", defineReportArena},
	"truth":              {"report an EVM block's minimum gas price and timestamp (validators)", defineTruth},
}

// txFlags are the flags every message has.
type txFlags struct {
	from, home, node, chainID *string
	nonce                     *int64
	wait                      *bool
}

func defineTxFlags(fs *flag.FlagSet) txFlags {
	return txFlags{
		from:    fs.String("from", "", "name of the signing key in <home>/keys (required)"),
		home:    homeFlag(fs),
		node:    nodeFlag(fs),
		chainID: fs.String("chain-id", "", "chain id (default: ask the node)"),
		nonce:   fs.Int64("nonce", -1, "account nonce (default: ask the node for the next one)"),
		wait:    fs.Bool("wait", false, "wait until the transaction is committed (broadcast_tx_commit)"),
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
	common := defineTxFlags(fs)
	build := m.define(fs)
	pos, ok, err := parseFlags(env, fs, "tx "+name+" --from KEY [flags]", rest)
	if !ok || err != nil {
		return err
	}
	if err := wantArgs(pos, 0, "tx "+name+" --from KEY [flags]"); err != nil {
		return err
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

// sendTx loads the key, finds chain id and nonce, signs and broadcasts;
// a refusal is a *client.TxError returned with the result.
func sendTx(ctx context.Context, f txFlags, msg *subnetv1.Msg) (client.TxResult, error) {
	if *f.from == "" {
		return client.TxResult{}, fmt.Errorf("--from: a key name is required (see `validatord keys list --home %s`)", *f.home)
	}
	key, err := keyfile.Load(*f.home, *f.from)
	if err != nil {
		return client.TxResult{}, err
	}
	c, err := dialNode(*f.node)
	if err != nil {
		return client.TxResult{}, err
	}
	chainID := *f.chainID
	if chainID == "" {
		st, err := c.NodeStatus(ctx)
		if err != nil {
			return client.TxResult{}, err
		}
		chainID = st.ChainID
	}
	s := client.NewSigner(c, chainID, key)
	if *f.nonce >= 0 {
		s.SetNonce(uint64(*f.nonce))
	}
	tx, err := s.Sign(ctx, msg)
	if err != nil {
		return client.TxResult{}, err
	}
	if *f.wait {
		return c.BroadcastCommit(ctx, tx)
	}
	return c.Broadcast(ctx, tx)
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
