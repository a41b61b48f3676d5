package main

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"fmt"

	"github.com/scoringsubnet/validatord/internal/keyfile"
)

const queryAccountUsage = "query account <key name|pubkey hex> [--home DIR] [-o json|text] [--node URL]   (a name is looked up in --home's keyring)"

// runQueryAccount shows a key's account: by its public key (64 hex digits,
// either case) or by the name of a key in --home's keyring. JSON by
// default, as `query account/<hex>` answers.
func runQueryAccount(ctx context.Context, env Env, args []string) error {
	fs := newFlags("query account")
	node := nodeFlag(fs)
	home := homeFlag(fs)
	out := queryOutputFlag(fs, outputJSON)
	pos, ok, err := parseFlags(env, fs, queryAccountUsage, args)
	if !ok || err != nil {
		return err
	}
	if err := wantArgs(pos, 1, queryAccountUsage); err != nil {
		return err
	}
	pub, err := accountKey(*home, pos[0])
	if err != nil {
		return err
	}
	c, err := dialNode(*node)
	if err != nil {
		return err
	}
	bz, err := c.Query(ctx, "account/"+hex.EncodeToString(pub))
	if err != nil {
		return oneLine(err)
	}
	if out.format == outputText {
		return printJSONText(env.Stdout, bz)
	}
	pretty, err := prettyJSON(bz)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(env.Stdout, "%s\n", pretty)
	return err
}

// accountKey is the public key an account argument names: 64 hex digits
// are the key itself; anything else is a key name in home's keyring.
func accountKey(home, arg string) (ed25519.PublicKey, error) {
	if len(arg) == 2*ed25519.PublicKeySize {
		if pub, err := hex.DecodeString(arg); err == nil {
			return pub, nil
		}
	}
	key, err := keyfile.Load(home, arg)
	if err != nil {
		return nil, oneLine(fmt.Errorf("account %q is neither a public key (64 hex digits) nor a key in the keyring of --home %s: %w", arg, home, err))
	}
	pub, _ := key.Public().(ed25519.PublicKey)
	return pub, nil
}
