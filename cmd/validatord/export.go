package main

import (
	"context"
	"fmt"

	"github.com/scoringsubnet/validatord/internal/audit"
	"github.com/scoringsubnet/validatord/internal/replay"
	"github.com/scoringsubnet/validatord/internal/statedump"
)

func init() {
	register(Command{Name: "export", Summary: "print the app state as JSON (last height, or --height H by replay) for auditors", Run: runExport})
}

const exportUsage = "export [--home DIR] [--height H] [--workdir DIR]   (the node must be stopped)"

func runExport(ctx context.Context, env Env, args []string) error {
	fs := newFlags("export")
	home := homeFlag(fs)
	height := fs.Int64("height", 0, "export the state at this height, rebuilt by replaying the block store (default: the app's last committed state)")
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
	var doc statedump.Document
	if *height == 0 {
		doc, err = exportStored(*home)
	} else {
		doc, err = exportReplayed(ctx, env, *home, *height, *workdir)
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

// exportStored reads the app's own badger directory (read-only, or a copy of it).
func exportStored(home string) (statedump.Document, error) {
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
