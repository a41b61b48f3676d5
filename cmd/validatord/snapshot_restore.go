package main

import (
	"context"
	"encoding/hex"
	"fmt"

	"github.com/scoringsubnet/validatord/snapshot"
)

const snapshotRestoreUsage = "snapshot restore --from DIR --height N --app-hash HEX [--home DIR]   (into an empty app store)"

// restoreView is what `snapshot restore` prints.
type restoreView struct {
	Home        string `json:"home"`
	AppStore    string `json:"app_store"`
	Height      int64  `json:"height"`
	AppHash     string `json:"app_hash"`
	FirstHeight int64  `json:"first_height"`
	Note        string `json:"note"`
}

// restoreNote says what a restored home is for: CometBFT's own stores know
// nothing of the height, so `start` would refuse the home (docs/statesync.md).
const restoreNote = "app state restored for offline use (validatord export --home, snapshot export); " +
	"to run a node from a height, join by CometBFT state sync ([statesync] in config.toml, README \"State sync\")"

// runSnapshotRestore restores a snapshot into a home whose app store is
// empty, verifying every chunk and the app hash against --app-hash.
func runSnapshotRestore(_ context.Context, env Env, args []string) error {
	fs := newFlags("snapshot restore")
	home := homeFlag(fs)
	from := fs.String("from", "", "the snapshot directory holding <height>/ (e.g. another home's data/snapshots)")
	height := fs.Int64("height", 0, "the snapshot's height")
	appHash := fs.String("app-hash", "", "the trusted app hash of that height (hex), e.g. from `query status` or /commit of a trusted node")
	pos, ok, err := parseFlags(env, fs, snapshotRestoreUsage, args)
	if !ok || err != nil {
		return err
	}
	if err := wantArgs(pos, 0, snapshotRestoreUsage); err != nil {
		return err
	}
	switch {
	case *from == "":
		return fmt.Errorf("--from is required; usage: validatord %s", snapshotRestoreUsage)
	case *height <= 0:
		return fmt.Errorf("--height: %d, want the snapshot's height (>= 1); usage: validatord %s", *height, snapshotRestoreUsage)
	}
	trusted, err := hex.DecodeString(*appHash)
	if err != nil || len(trusted) != 32 {
		return fmt.Errorf("--app-hash: %q, want 64 hex digits (the trusted app hash of height %d)", *appHash, *height)
	}
	dbDir := appDataDir(*home)
	meta, err := snapshot.RestoreStore(dbDir, *from, uint64(*height), trusted)
	if err != nil {
		return oneLine(fmt.Errorf("restore height %d from %s: %w", *height, *from, err))
	}
	return printJSON(env.Stdout, restoreView{Home: *home, AppStore: dbDir, Height: meta.Height, AppHash: hexOf(meta.AppHash),
		FirstHeight: meta.FirstHeight, Note: restoreNote})
}
