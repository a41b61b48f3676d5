package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// defineAttestMetagraph is `tx attest-metagraph` (validators, mirror mode):
// the snapshot file (client.SnapshotFile) at --parent-block, sent with its
// bytes unless --digest-only (the chain then needs them stored already).
func defineAttestMetagraph(fs *flag.FlagSet) func() (*subnetv1.Msg, error) {
	file := fs.String("file", "", "snapshot JSON: {parent_block, entries: [{uid, hotkey (ss58), registered_block}]}")
	parentBlock := fs.Uint64("parent-block", 0, "the parent block the snapshot was read at (must match the file's parent_block, if it has one)")
	digestOnly := fs.Bool("digest-only", false, "send the digest without the snapshot's bytes (another validator sent them)")
	return func() (*subnetv1.Msg, error) {
		if err := requireSet(fs, "file", "parent-block"); err != nil {
			return nil, err
		}
		bz, err := os.ReadFile(*file)
		if err != nil {
			return nil, fmt.Errorf("--file: %w", err)
		}
		s, err := client.DecodeSnapshotFile(bz, *parentBlock)
		if err != nil {
			return nil, err
		}
		return client.AttestMetagraph(s, !*digestOnly), nil
	}
}
