package main

import (
	"flag"

	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// defineBindHotkey is `tx bind-hotkey` (miners, mirror mode): binds the
// --from key to a parent uid with the hotkey's signature (`keys
// sign-binding` makes one from a seed, a wallet from the hotkey).
func defineBindHotkey(fs *flag.FlagSet) func() (*subnetv1.Msg, error) {
	uid := fs.Uint("uid", 0, "the parent chain's uid")
	parentBlock := fs.Uint64("parent-block", 0, "the parent block the hotkey signed at")
	sig := fs.String("signature", "", "the hotkey's sr25519 signature (hex) of the binding message")
	return func() (*subnetv1.Msg, error) {
		if err := requireSet(fs, "uid", "parent-block", "signature"); err != nil {
			return nil, err
		}
		s, err := client.DecodeSignature(*sig)
		if err != nil {
			return nil, err
		}
		return client.BindHotkey(uint32(*uid), *parentBlock, s), nil
	}
}
