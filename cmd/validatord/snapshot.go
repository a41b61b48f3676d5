package main

import (
	"context"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/scoringsubnet/validatord/app/snapshot"
)

func init() {
	register(Command{Name: "snapshot", Summary: "state-sync snapshots of a home: list, export (of a stopped node, at a kept height), restore (into an empty app store)", Run: runSnapshot})
}

const snapshotUsage = "snapshot list|export|restore [flags]   (snapshot <subcommand> --help for its flags)"

// runSnapshot dispatches to one file per subcommand; the logic lives in
// package snapshot (ExportStore, RestoreStore, List).
func runSnapshot(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("missing subcommand; usage: validatord %s", snapshotUsage)
	}
	switch args[0] {
	case "list":
		return runSnapshotList(ctx, env, args[1:])
	case "export":
		return runSnapshotExport(ctx, env, args[1:])
	case "restore":
		return runSnapshotRestore(ctx, env, args[1:])
	case "-h", "--help", "help":
		_, err := fmt.Fprintf(env.Stdout, "usage: validatord %s\n", snapshotUsage)
		return err
	default:
		return fmt.Errorf("unknown subcommand %q; usage: validatord %s", args[0], snapshotUsage)
	}
}

// snapshotView is one snapshot as the subcommands print it.
type snapshotView struct {
	Height  uint64 `json:"height"`
	Format  uint32 `json:"format"`
	Chunks  uint32 `json:"chunks"`
	Bytes   uint64 `json:"bytes"`
	Entries uint64 `json:"entries"`
	ChainID string `json:"chain_id"`
	Time    string `json:"time"`
	AppHash string `json:"app_hash"`
	Hash    string `json:"hash"`
	Dir     string `json:"dir"`
}

func viewOf(dir string, i snapshot.Info) snapshotView {
	return snapshotView{Height: i.Height, Format: i.Format, Chunks: i.Chunks, Bytes: i.Meta.Size, Entries: i.Meta.Entries,
		ChainID: i.Meta.ChainID, Time: time.Unix(i.Meta.Time, 0).UTC().Format(time.RFC3339), AppHash: strings.ToUpper(hexOf(i.Meta.AppHash)),
		Hash: hexOf(i.Hash), Dir: dir}
}

func hexOf(b []byte) string { return hex.EncodeToString(b) }
