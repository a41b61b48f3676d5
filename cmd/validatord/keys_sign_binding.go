package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"

	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/keyfile"
)

const signBindingUsage = "keys sign-binding --sr25519-seed HEX --chain-id ID --uid U --parent-block N (--from KEY | --tx-key HEX) [--home DIR]"

// runSignBinding is `keys sign-binding`: the hotkey of an sr25519 seed
// signs the binding of a tx key (the --from key's, or --tx-key) to a
// parent uid (client.SignBindingView), for development and tests; a miner's
// hotkey usually signs the same message in its wallet.
func runSignBinding(_ context.Context, env Env, args []string) error {
	fs := newFlags("keys sign-binding")
	home := homeFlag(fs)
	seed := fs.String("sr25519-seed", "", "the hotkey's 32-byte seed (hex, substrate's secret seed)")
	chainID := fs.String("chain-id", "", "this chain's id")
	uid := fs.Uint("uid", 0, "the parent chain's uid")
	parentBlock := fs.Uint64("parent-block", 0, "the parent block to sign at")
	from := fs.String("from", "", "name of the tx key in <home>/keys")
	txKey := fs.String("tx-key", "", "the tx key (hex ed25519 public key), instead of --from")
	pos, ok, err := parseFlags(env, fs, signBindingUsage, args)
	if !ok || err != nil {
		return err
	}
	if err := wantArgs(pos, 0, signBindingUsage); err != nil {
		return err
	}
	if err := requireSet(fs, "sr25519-seed", "chain-id", "uid", "parent-block"); err != nil {
		var mf *MissingFlagsError
		if errors.As(err, &mf) {
			mf.Usage = signBindingUsage
		}
		return err
	}
	s, err := client.DecodeHex32("--sr25519-seed", *seed)
	if err != nil {
		return err
	}
	key, err := bindingTxKey(*home, *from, *txKey)
	if err != nil {
		return err
	}
	out, err := client.SignBindingView(s, *chainID, uint32(*uid), key, *parentBlock)
	if err != nil {
		return err
	}
	return printJSON(env.Stdout, out)
}

// bindingTxKey is the --from key's public key, or --tx-key.
func bindingTxKey(home, from, txKey string) (ed25519.PublicKey, error) {
	if (from == "") == (txKey == "") {
		return nil, fmt.Errorf("give one of --from and --tx-key")
	}
	if txKey != "" {
		k, err := client.DecodeHex32("--tx-key", txKey)
		return k[:], err
	}
	if err := checkHome(home); err != nil {
		return nil, err
	}
	priv, err := keyfile.Load(home, from)
	if err != nil {
		return nil, err
	}
	return priv.Public().(ed25519.PublicKey), nil
}
