package sigverify

import (
	"crypto/ed25519"
	"sync"
)

// Item is one signature to verify: sig by PubKey over Msg.
type Item struct {
	PubKey, Msg, Sig []byte
}

// Valid is one item's check, exactly as crypto/ed25519 gives it (a key or
// signature of the wrong length is invalid).
func Valid(it Item) bool {
	return len(it.PubKey) == ed25519.PublicKeySize && len(it.Sig) == ed25519.SignatureSize &&
		ed25519.Verify(it.PubKey, it.Msg, it.Sig)
}

// minPerWorker: below this many items per worker, a goroutine costs more
// than it saves (one verification is about 20–50 µs).
const minPerWorker = 16

// Verify checks every item and returns out[i] = Valid(items[i]), using up
// to workers goroutines on contiguous ranges of items. workers < 2, or too
// few items, verifies on the calling goroutine.
func Verify(items []Item, workers int) []bool {
	out := make([]bool, len(items))
	workers = min(workers, len(items)/minPerWorker)
	if workers < 2 {
		for i, it := range items {
			out[i] = Valid(it)
		}
		return out
	}
	var wg sync.WaitGroup
	per := (len(items) + workers - 1) / workers
	for lo := 0; lo < len(items); lo += per {
		hi := min(lo+per, len(items))
		wg.Add(1)
		// det: pure parallel — each worker writes only out[lo:hi], from its items alone.
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				out[i] = Valid(items[i])
			}
		}()
	}
	wg.Wait()
	return out
}
