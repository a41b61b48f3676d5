package audit

import (
	"context"
	"fmt"

	"github.com/scoringsubnet/validatord/internal/replay"
	"github.com/scoringsubnet/validatord/internal/statedump"
)

// ExportStored reads an app's badger directory (read-only) as a document.
func ExportStored(dir string) (statedump.Document, error) {
	entries, err := replay.DumpBadger(dir)
	if err != nil {
		return statedump.Document{}, fmt.Errorf("app state %s: %w", dir, err)
	}
	kvs := toKVs(entries)
	doc := statedump.Build(kvs)
	doc.Height, doc.AppHash, _ = statedump.Meta(kvs)
	doc.Source = "app state " + dir
	return doc, nil
}

// ExportReplayed rebuilds the state at opts.To by replaying src (every app
// hash checked on the way) and returns it as a document.
func ExportReplayed(ctx context.Context, src *replay.Source, opts replay.Options) (statedump.Document, error) {
	res, err := replay.Run(ctx, src, Target(), opts)
	if err != nil {
		return statedump.Document{}, err
	}
	defer res.Close()
	if err := res.CloseApp(); err != nil {
		return statedump.Document{}, err
	}
	entries, err := replay.DumpBadger(res.Dir)
	if err != nil {
		return statedump.Document{}, err
	}
	doc := statedump.Build(toKVs(entries))
	doc.Height = res.To
	doc.AppHash = upperHex(res.AppHash)
	doc.Source = fmt.Sprintf("replay of the block store to height %d, app hashes checked", opts.To)
	return doc, nil
}
