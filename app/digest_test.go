package app

import (
	"encoding/json"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/internal/statedump"
)

// TestDigestQueryMatchesStateDump: the "digest" query, which reads only the
// score prefixes, equals statedump.ScoreDigest over every entry of the
// store (what `validatord replay` prints), now and at an earlier height.
func TestDigestQueryMatchesStateDump(t *testing.T) {
	n := goldenChain(t)
	for _, h := range []int64{0, 5} {
		path := "digest"
		resp := n.answerAt(path, h)
		var v wire.DigestView
		if err := json.Unmarshal(resp, &v); err != nil {
			t.Fatal(err)
		}
		version := uint64(store.Latest)
		if h > 0 {
			version = uint64(h)
		}
		kvs := allEntries(t, n.app.db, version)
		if want := statedump.ScoreDigest(kvs); v.ScoreDigest != want || v.ScoreEntries == 0 {
			t.Errorf("height %d: digest %s (%d entries), state dump %s", h, v.ScoreDigest, v.ScoreEntries, want)
		}
		if h > 0 && v.Height != h {
			t.Errorf("height %d answered for %d", v.Height, h)
		}
	}
}

func allEntries(t *testing.T, db *badger.DB, version uint64) []statedump.KV {
	t.Helper()
	txn := db.NewTransactionAt(version, false)
	defer txn.Discard()
	it := txn.NewIterator(badger.DefaultIteratorOptions)
	defer it.Close()
	var out []statedump.KV
	for it.Rewind(); it.Valid(); it.Next() {
		v, err := it.Item().ValueCopy(nil)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, statedump.KV{Key: it.Item().KeyCopy(nil), Value: v})
	}
	return out
}
