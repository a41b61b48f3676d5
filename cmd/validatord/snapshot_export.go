package main

import (
	"context"
	"fmt"

	"github.com/scoringsubnet/validatord/app/snapshot"
	"github.com/scoringsubnet/validatord/node/appconfig"
)

const snapshotExportUsage = "snapshot export [--home DIR] [--height N] [--out DIR]   (the node must be stopped)"

// runSnapshotExport writes the snapshot of a stopped node's app state as of
// a kept height (default: the newest), the same bytes the node writes at a
// snapshot_interval height, and prints it.
func runSnapshotExport(_ context.Context, env Env, args []string) error {
	fs := newFlags("snapshot export")
	home := homeFlag(fs)
	height := fs.Int64("height", 0, "the height whose state to write, within the node's keep_versions (default: the newest)")
	out := fs.String("out", "", "the snapshot directory to write into (default: <home>/data/snapshots)")
	pos, ok, err := parseFlags(env, fs, snapshotExportUsage, args)
	if !ok || err != nil {
		return err
	}
	if err := wantArgs(pos, 0, snapshotExportUsage); err != nil {
		return err
	}
	if *height < 0 {
		return fmt.Errorf("--height: %d, want a height >= 1 (or 0: the newest)", *height)
	}
	nc, err := appconfig.Load(*home)
	if err != nil {
		return oneLine(err)
	}
	dir := *out
	if dir == "" {
		dir = snapshotDir(*home)
	}
	info, err := snapshot.ExportStore(appDataDir(*home), dir, snapshot.ExportOptions{Height: uint64(*height), KeepVersions: nc.KeepVersions})
	if err != nil {
		return oneLine(err)
	}
	return printJSON(env.Stdout, viewOf(dir, info))
}
