package snapshot

import (
	"sync"
	"sync/atomic"

	"github.com/dgraph-io/badger/v4"
)

// Writer writes snapshots in the background, one at a time, each from the
// read transaction it is given (the committed state at that version), and
// prunes the directory to the newest KeepRecent after each. The app starts
// it after Commit; nothing of it runs in block execution.
type Writer struct {
	Dir        string
	KeepRecent int
	// Log receives one line per snapshot written or failed.
	Log func(msg string, keyvals ...any)

	busy atomic.Bool
	wg   sync.WaitGroup
}

// Start writes the snapshot of h from txn in the background and returns
// true; it returns false (and discards txn) while the previous snapshot is
// still being written. The Writer discards txn when done.
func (w *Writer) Start(txn *badger.Txn, h Header) bool {
	if !w.busy.CompareAndSwap(false, true) {
		txn.Discard()
		return false
	}
	w.wg.Add(1)
	// det: after commit: reads a committed transaction; block execution never waits for it
	go func() {
		defer w.wg.Done()
		defer w.busy.Store(false)
		defer txn.Discard()
		it := NewBadgerIterator(txn)
		info, err := Create(w.Dir, it, h, Options{})
		it.Close()
		if err != nil {
			w.log("snapshot failed", "height", h.Height, "err", err)
			return
		}
		removed, err := Prune(w.Dir, w.KeepRecent)
		if err != nil {
			w.log("snapshot prune failed", "err", err)
		}
		w.log("snapshot written", "height", info.Height, "chunks", info.Chunks, "bytes", info.Meta.Size,
			"entries", info.Meta.Entries, "pruned", len(removed))
	}()
	return true
}

// Wait waits for the snapshot being written, if any.
func (w *Writer) Wait() { w.wg.Wait() }

func (w *Writer) log(msg string, kv ...any) {
	if w.Log != nil {
		w.Log(msg, kv...)
	}
}
