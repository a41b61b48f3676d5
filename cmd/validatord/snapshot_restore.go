package main

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"

	cfg "github.com/cometbft/cometbft/config"

	"github.com/scoringsubnet/validatord/app/snapshot"
)

const snapshotRestoreUsage = "snapshot restore --from DIR --height N --app-hash HEX [--bootstrap] [--home DIR]   (into an empty app store; --bootstrap: and CometBFT's stores, from [statesync])"

// restoreView is what `snapshot restore` prints.
type restoreView struct {
	Home         string `json:"home"`
	AppStore     string `json:"app_store"`
	Height       int64  `json:"height"`
	AppHash      string `json:"app_hash"`
	FirstHeight  int64  `json:"first_height"`
	Bootstrapped bool   `json:"bootstrapped"`
	Note         string `json:"note"`
}

// The notes say what the restored home is for. Without --bootstrap,
// CometBFT's own stores know nothing of the height, so `start` would refuse
// the home (docs/statesync.md).
const (
	restoreNote = "app state restored for offline use (validatord export --home, snapshot export); " +
		"to run a node from this height, restore with --bootstrap into a fresh home, or join by CometBFT state sync (README \"State sync\")"
	bootstrapNote = "app state and CometBFT's stores at this height: `validatord start` block-syncs from the next height"
)

// runSnapshotRestore restores a snapshot into a home whose app store is
// empty, verifying every chunk and the app hash against --app-hash.
func runSnapshotRestore(ctx context.Context, env Env, args []string) error {
	fs := newFlags("snapshot restore")
	home := homeFlag(fs)
	from := fs.String("from", "", "the snapshot directory holding <height>/ (e.g. another home's data/snapshots)")
	height := fs.Int64("height", 0, "the snapshot's height")
	appHash := fs.String("app-hash", "", "the trusted app hash of that height (hex), e.g. from `query status --height N` or /commit?height=N+1 of a trusted node")
	bootstrap := fs.Bool("bootstrap", false, "also write CometBFT's state of that height, light-client verified from config.toml [statesync] (the home must have no chain yet)")
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
	var conf *cfg.Config
	if *bootstrap {
		if conf, err = loadConfig(*home); err != nil {
			return err
		}
		if err := checkBootstrapConfig(conf); err != nil {
			return err
		}
	}
	dbDir := appDataDir(*home)
	meta, err := snapshot.RestoreStore(dbDir, *from, uint64(*height), trusted)
	if err != nil {
		return oneLine(fmt.Errorf("restore height %d from %s: %w", *height, *from, err))
	}
	view := restoreView{Home: *home, AppStore: dbDir, Height: meta.Height, AppHash: strings.ToUpper(hexOf(meta.AppHash)),
		FirstHeight: meta.FirstHeight, Note: restoreNote}
	if *bootstrap {
		if err := bootstrapCometBFT(ctx, conf, meta.Height, meta.AppHash); err != nil {
			// The app store was empty before: leave the home as it was.
			return oneLine(errors.Join(err, os.RemoveAll(dbDir)))
		}
		view.Bootstrapped, view.Note = true, bootstrapNote
	}
	return printJSON(env.Stdout, view)
}
