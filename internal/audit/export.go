package audit

import (
	"context"
	"fmt"
	"math"

	"github.com/scoringsubnet/validatord/internal/replay"
	"github.com/scoringsubnet/validatord/internal/statedump"
)

// ExportStored reads an app's badger directory (read-only) as a document.
func ExportStored(dir string) (statedump.Document, error) {
	return ExportStoredAt(dir, 0)
}

// ExportStoredAt is ExportStored of the state as of height (0: the newest), read from the
// app store's own version of that height, which must be one it keeps whole (see
// app.Config.KeepVersions).
func ExportStoredAt(dir string, height int64) (statedump.Document, error) {
	version := uint64(math.MaxUint64)
	if height > 0 {
		version = uint64(height)
	}
	entries, err := replay.DumpBadgerAt(dir, version)
	if err != nil {
		return statedump.Document{}, fmt.Errorf("app state %s: %w", dir, err)
	}
	kvs := toKVs(entries)
	doc := statedump.Build(kvs)
	doc.Height, doc.AppHash, _ = statedump.Meta(kvs)
	if height > 0 && doc.Height != height {
		return statedump.Document{}, fmt.Errorf("app state %s holds no version of height %d", dir, height)
	}
	doc.Source = "app state " + dir
	if height > 0 {
		doc.Source = fmt.Sprintf("app state %s, version of height %d", dir, height)
	}
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
