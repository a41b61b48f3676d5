package sigverify

import (
	"crypto/sha3"
	"encoding/binary"
	"sync"

	voi "github.com/oasisprotocol/curve25519-voi/primitives/ed25519"
)

// Item is one signature to verify: sig by PubKey over Msg.
type Item struct {
	PubKey, Msg, Sig []byte
}

// rule is ZIP-215 (see doc.go).
var rule = &voi.Options{Verify: voi.VerifyOptionsZIP_215}

// Valid is one item's check under ZIP-215 (a key or signature of the wrong
// length is invalid).
func Valid(it Item) bool {
	if len(it.PubKey) != voi.PublicKeySize || len(it.Sig) != voi.SignatureSize {
		return false
	}
	if ek := keys.get(it.PubKey); ek != nil {
		return voi.VerifyExpandedWithOptions(ek, it.Msg, it.Sig, rule)
	}
	return voi.VerifyWithOptions(it.PubKey, it.Msg, it.Sig, rule)
}

// BatchSize is the largest batch Verify builds: below voi's Pippenger
// threshold (94), where the expanded keys' tables are used, and large
// enough that the shared multiplication pays (docs/performance.md).
const BatchSize = 64

// minPerWorker: below this many items per worker, a goroutine costs more
// than it saves (one verification is about 15–40 µs).
const minPerWorker = 16

// Verify checks every item and returns out[i] = Valid(items[i]), using up
// to workers goroutines on contiguous ranges of items, each range checked
// in batches of at most BatchSize. workers < 2, or too few items, verifies
// on the calling goroutine.
func Verify(items []Item, workers int) []bool {
	out := make([]bool, len(items))
	workers = min(workers, len(items)/minPerWorker)
	if workers < 2 {
		verifyRange(items, out)
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
			verifyRange(items[lo:hi], out[lo:hi])
		}()
	}
	wg.Wait()
	return out
}

// verifyRange sets out[i] for items[i], batch by batch.
func verifyRange(items []Item, out []bool) {
	for lo := 0; lo < len(items); lo += BatchSize {
		hi := min(lo+BatchSize, len(items))
		verifyBatch(items[lo:hi], out[lo:hi])
	}
}

// verifyBatch checks one batch. Items of the wrong length, or whose key is
// no point, are invalid under ZIP-215 whatever the rest; they are decided
// alone and kept out of the batch. A single item is verified alone.
func verifyBatch(items []Item, out []bool) {
	if len(items) == 1 {
		out[0] = Valid(items[0])
		return
	}
	bv := voi.NewBatchVerifierWithCapacity(len(items))
	var at []int
	for i, it := range items {
		if len(it.PubKey) != voi.PublicKeySize || len(it.Sig) != voi.SignatureSize {
			continue // out[i] stays false, as Valid says
		}
		ek := keys.get(it.PubKey)
		if ek == nil {
			var err error
			if ek, err = voi.NewExpandedPublicKey(it.PubKey); err != nil {
				out[i] = Valid(it) // not a point: Valid refuses it, and says so itself
				continue
			}
			keys.offer(it.PubKey, ek)
		}
		bv.AddExpandedWithOptions(ek, it.Msg, it.Sig, rule)
		at = append(at, i)
	}
	if len(at) == 0 {
		return
	}
	_, valid := bv.Verify(coefficients(items, at))
	for j, i := range at {
		out[i] = valid[j]
	}
}

// coefficients is the batch's source of random coefficients: a SHAKE256
// stream over the batch's keys, messages and signatures, each
// length-prefixed, after a domain tag.
func coefficients(items []Item, at []int) *sha3.SHAKE {
	h := sha3.NewSHAKE256()
	h.Write([]byte("validatord/sigverify/batch/v1"))
	var n [8]byte
	for _, i := range at {
		for _, b := range [][]byte{items[i].PubKey, items[i].Msg, items[i].Sig} {
			binary.BigEndian.PutUint64(n[:], uint64(len(b)))
			h.Write(n[:])
			h.Write(b)
		}
	}
	return h
}
