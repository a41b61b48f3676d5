package main

import (
	"encoding/hex"
	"strings"
	"time"

	"github.com/scoringsubnet/validatord/app/snapshot"
)

// snapshot's subcommands are one file each; the logic lives in package
// snapshot (ExportStore, RestoreStore, List).
func init() {
	c := root.add(&command{name: "snapshot", summary: "state-sync snapshots of a home: list, export (of a stopped node, at a kept height), restore (into an empty app store)",
		usage: snapshotUsage, noun: "subcommand"})
	c.add(&command{name: "list", summary: "the snapshots of a home, or of a snapshot directory", usage: snapshotListUsage, run: runSnapshotList})
	c.add(&command{name: "export", summary: "a stopped node's snapshot at a kept height", usage: snapshotExportUsage, run: runSnapshotExport})
	c.add(&command{name: "restore", summary: "a snapshot into an empty app store", usage: snapshotRestoreUsage, run: runSnapshotRestore})
}

const snapshotUsage = "snapshot list|export|restore [flags]   (snapshot <subcommand> --help for its flags)"

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
