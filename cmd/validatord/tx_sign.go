package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/keyfile"
)

// tx sign and tx broadcast are the words of `tx` that are not messages:
// tx's help names them apart (its about), so they are hidden from its list.
func init() {
	txCmd.add(&command{name: "sign", hidden: true, usage: txSignUsage, run: runTxSign,
		summary: "sign an unsigned transaction (tx … --generate-only) with a key of this home, without a node"})
	txCmd.add(&command{name: "broadcast", hidden: true, usage: txBroadcastUsage, run: runTxBroadcast,
		summary: "send a signed transaction (tx sign) to a node"})
}

const txSignUsage = "tx sign <file|-> --from KEY [--chain-id ID] [--nonce N] [--home DIR] [-o json|text]"

// runTxSign is `tx sign`: an unsigned transaction (`tx … --generate-only`)
// signed with a key of this home, without a node; the chain id and nonce
// are the file's unless --chain-id or --nonce are given. It prints the
// signed bytes (client.SignedTx) for `tx broadcast`.
func runTxSign(_ context.Context, env Env, args []string) error {
	fs := newFlags("tx sign")
	from := fs.String("from", "", "name of the signing key in <home>/keys (required; the file's sender must be its public key)")
	home := homeFlag(fs)
	chainID := fs.String("chain-id", "", "chain id (default: the file's)")
	nonce := fs.Int64("nonce", -1, "account nonce (default: the file's)")
	out := defineOutput(fs)
	pos, ok, err := parseFlags(env, fs, txSignUsage, args)
	if !ok || err != nil {
		return err
	}
	if err := wantArgs(pos, 1, txSignUsage); err != nil {
		return err
	}
	if *from == "" {
		return &MissingFlagsError{Flags: []string{"from"}, Usage: txSignUsage}
	}
	if err := checkHome(*home); err != nil {
		return err
	}
	src, err := readInput(env, pos[0])
	if err != nil {
		return err
	}
	u, err := client.DecodeUnsigned(src)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	if *chainID != "" {
		u.ChainID = *chainID
	}
	if *nonce >= 0 {
		u.Nonce = uint64(*nonce)
	}
	key, err := keyfile.Load(*home, *from)
	if err != nil {
		return err
	}
	signed, err := client.SignUnsigned(u, key)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	return out.print(env.Stdout, signed)
}

// readInput reads a file, or stdin for "-".
func readInput(env Env, name string) ([]byte, error) {
	if name == "-" {
		if env.Stdin == nil {
			return nil, fmt.Errorf("-: no standard input")
		}
		return io.ReadAll(env.Stdin)
	}
	bz, err := os.ReadFile(name)
	if err != nil {
		return nil, oneLine(err)
	}
	return bz, nil
}
