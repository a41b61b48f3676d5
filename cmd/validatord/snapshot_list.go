package main

import (
	"context"

	"github.com/scoringsubnet/validatord/app/snapshot"
)

const snapshotListUsage = "snapshot list [--home DIR] [--dir DIR]"

// runSnapshotList prints the snapshots of a home (or of --dir), by
// increasing height. It only reads files: the node may be running.
func runSnapshotList(_ context.Context, env Env, args []string) error {
	fs := newFlags("snapshot list")
	home := homeFlag(fs)
	dir := fs.String("dir", "", "a snapshot directory (default: <home>/data/snapshots)")
	pos, ok, err := parseFlags(env, fs, snapshotListUsage, args)
	if !ok || err != nil {
		return err
	}
	if err := wantArgs(pos, 0, snapshotListUsage); err != nil {
		return err
	}
	d := *dir
	if d == "" {
		if err := checkHome(*home); err != nil {
			return err // a mistyped --home is not a home without snapshots
		}
		d = snapshotDir(*home)
	}
	infos, err := snapshot.List(d)
	if err != nil {
		return oneLine(err)
	}
	views := make([]snapshotView, 0, len(infos))
	for _, i := range infos {
		views = append(views, viewOf(d, i))
	}
	return printJSON(env.Stdout, views)
}
