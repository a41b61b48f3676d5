package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/scoringsubnet/validatord/internal/audit"
	"github.com/scoringsubnet/validatord/internal/replay"
	"github.com/scoringsubnet/validatord/internal/statedump"
	"github.com/scoringsubnet/validatord/node/appconfig"
)

func init() {
	root.add(&command{name: "export", summary: "print the app state as JSON (last height, or --height H by replay) for auditors", run: runExport})
}

const exportUsage = "export [--home DIR] [--height H] [--workdir DIR]   (the node must be stopped; a height among the kept versions is read directly, an older one rebuilt by replay)"

func runExport(ctx context.Context, env Env, args []string) error {
	fs := newFlags("export")
	home := homeFlag(fs)
	height := fs.Int64("height", 0, "export the state at this height: read from the app store's version of it when kept (app.toml keep_versions), else rebuilt by replaying the block store (default: the app's last committed state)")
	workdir := fs.String("workdir", "", "parent of the temporary replay directory")
	pos, ok, err := parseFlags(env, fs, exportUsage, args)
	if !ok || err != nil {
		return err
	}
	if err := wantArgs(pos, 0, exportUsage); err != nil {
		return err
	}
	if *height < 0 {
		return fmt.Errorf("--height: %d, want a height >= 1", *height)
	}
	if err := checkHome(*home); err != nil {
		return err
	}
	var doc statedump.Document
	switch kept, kerr := keptVersion(*home, *height); {
	case *height == 0:
		doc, err = exportStored(*home)
	case kerr != nil:
		return kerr
	case kept:
		doc, err = audit.ExportStoredAt(appDataDir(*home), *height)
		err = oneLine(err)
	default:
		doc, err = exportReplayed(ctx, env, *home, *height, *workdir)
		if errors.Is(err, replay.ErrPruned) {
			first, latest, _ := replay.StoredHeights(appDataDir(*home))
			return fmt.Errorf("export --height %d: the app store keeps versions of heights %d to %d only, and %w", *height, first, latest, err)
		}
	}
	if errors.Is(err, replay.ErrNodeRunning) {
		return fmt.Errorf("the node of --home %s is running (it holds the lock on its stores): stop it first, or export a copy of the home", *home)
	}
	if err != nil {
		return err
	}
	bz, err := doc.Encode()
	if err != nil {
		return err
	}
	_, err = env.Stdout.Write(bz)
	return err
}

// keptVersion reports whether the app store of home keeps a whole version of height: at
// or after its first height, within its app.toml keep_versions of the newest, and not
// after the newest.
func keptVersion(home string, height int64) (bool, error) {
	if height <= 0 {
		return false, nil
	}
	first, latest, err := replay.StoredHeights(appDataDir(home))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil // no app store: replay says what is missing
	}
	if err != nil {
		return false, oneLine(err)
	}
	if height > latest {
		return false, fmt.Errorf("export --height %d: the app store's newest height is %d", height, latest)
	}
	nc, err := appconfig.Load(home)
	if err != nil {
		return false, oneLine(err)
	}
	oldest := first
	if nc.KeepVersions > 0 {
		oldest = max(oldest, latest-nc.KeepVersions+1)
	}
	return height >= oldest, nil
}

// exportStored reads the app's own badger directory (read-only, or a copy of it).
func exportStored(home string) (statedump.Document, error) {
	if _, err := os.Stat(appDataDir(home)); errors.Is(err, os.ErrNotExist) {
		return statedump.Document{}, fmt.Errorf("--home %s holds no app state yet (no %s): the node has not run (`validatord start --home %s`)", home, appDataDir(home), home)
	}
	doc, err := audit.ExportStored(appDataDir(home))
	return doc, oneLine(err)
}

// exportReplayed rebuilds the state at height by replaying (every app hash checked on the way).
func exportReplayed(ctx context.Context, env Env, home string, height int64, workdir string) (statedump.Document, error) {
	src, err := openReplaySource(home)
	if err != nil {
		return statedump.Document{}, err
	}
	defer src.Close()
	doc, err := audit.ExportReplayed(ctx, src, replay.Options{To: height, WorkDir: workdir, Progress: env.Stderr})
	return doc, oneLine(err)
}
