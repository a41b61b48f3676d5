package sigverify

import (
	"crypto/sha3"
	"encoding/binary"

	voi "github.com/oasisprotocol/curve25519-voi/primitives/ed25519"

	"github.com/scoringsubnet/validatord/app/parallel"
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

// Verify checks every item and returns out[i] = Valid(items[i]), in
// batches of at most BatchSize spread over up to workers goroutines
// (app/parallel).
func Verify(items []Item, workers int) []bool {
	c := Start(items, workers)
	defer c.Close()
	for i := range items {
		c.Valid(i)
	}
	return c.out
}

// Checks is a list of signatures being verified in the background, batch
// by batch in the list's order, so a caller that consumes the results in
// order (block execution) runs beside the verification instead of after it.
type Checks struct {
	out []bool
	run *parallel.Run
}

// Start begins verifying items on up to workers goroutines and returns at
// once. Items must not change until Close.
func Start(items []Item, workers int) *Checks {
	c := &Checks{out: make([]bool, len(items))}
	batches := (len(items) + BatchSize - 1) / BatchSize
	c.run = parallel.Start(batches, workers, func(b int) {
		lo := b * BatchSize
		hi := min(lo+BatchSize, len(items))
		verifyBatch(items[lo:hi], c.out[lo:hi])
	})
	return c
}

// Valid waits for item i's batch and returns Valid(items[i]).
func (c *Checks) Valid(i int) bool {
	c.run.Wait(i / BatchSize)
	return c.out[i]
}

// Close stops the batches not yet started and waits for the running ones.
func (c *Checks) Close() { c.run.Close() }

// MinBatch is the smallest batch worth building: below it the shared
// multiplication costs more than it saves, so smaller runs are verified one
// signature at a time (BenchmarkVerify's batch-of rows: two signatures in a
// batch 33,000 – 35,500 a second against 36,400 – 39,400 alone, four
// 47,500 – 48,400).
const MinBatch = 4

// verifyBatch checks one batch. Items of the wrong length, or whose key is
// no point, are invalid under ZIP-215 whatever the rest; they are decided
// alone and kept out of the batch. Fewer than MinBatch items are verified
// alone.
func verifyBatch(items []Item, out []bool) {
	if len(items) < MinBatch {
		for i, it := range items {
			out[i] = Valid(it)
		}
		return
	}
	bv := voi.NewBatchVerifierWithCapacity(len(items))
	var at []int
	for i, it := range items {
		if len(it.PubKey) != voi.PublicKeySize || len(it.Sig) != voi.SignatureSize {
			continue // out[i] stays false, as Valid says
		}
		ek := batchKey(it.PubKey)
		if ek == nil {
			out[i] = Valid(it) // not a point: Valid refuses it, and says so itself
			continue
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

// batchKey is pub expanded for a batch: from the cache, or expanded now
// and offered to it; nil if pub is no point.
func batchKey(pub []byte) *voi.ExpandedPublicKey {
	if ek := keys.get(pub); ek != nil {
		return ek
	}
	ek, err := voi.NewExpandedPublicKey(pub)
	if err != nil {
		return nil
	}
	keys.offer(pub, ek)
	return ek
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

// Expanded reports whether pub is a key already held expanded: one seen
// verifying more than once (a registered miner's, a validator's). It
// expands and marks nothing.
func Expanded(pub []byte) bool {
	if len(pub) != voi.PublicKeySize {
		return false
	}
	var k [32]byte
	copy(k[:], pub)
	keys.mu.Lock()
	defer keys.mu.Unlock()
	if ek := keys.cur[k]; ek != nil {
		return true
	}
	return keys.old[k] != nil
}

// AllValid reports whether every item is valid, with one batch equation
// and nothing verified one at a time: true means each Valid(items[i]) is
// true; false means at least one is not (or an item is malformed), and
// says nothing of which. A caller that gets false and still needs each
// answer verifies them itself, so a run that holds one bad signature
// costs this batch on top of the singles (CheckTx's runs bound how often:
// app.App.CheckTxs). Keys are taken from the expanded-key cache, or
// expanded and offered to it, as in Verify's batches.
func AllValid(items []Item) bool {
	if len(items) == 0 {
		return true
	}
	bv := voi.NewBatchVerifierWithCapacity(len(items))
	at := make([]int, 0, len(items))
	for i, it := range items {
		if len(it.PubKey) != voi.PublicKeySize || len(it.Sig) != voi.SignatureSize {
			return false
		}
		ek := batchKey(it.PubKey)
		if ek == nil {
			return false
		}
		bv.AddExpandedWithOptions(ek, it.Msg, it.Sig, rule)
		at = append(at, i)
	}
	return bv.VerifyBatchOnly(coefficients(items, at))
}
