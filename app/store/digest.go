package store

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"

	"github.com/dgraph-io/badger/v4"
)

// ScoreDigest hashes the entries that hold scores or receipts (the Layout's
// Score prefixes): SHA-256 over uvarint(len key) key uvarint(len value)
// value of each, in key order. Two nodes with the same scores have the same
// digest. Entries of other prefixes are skipped, so a caller may Add every
// entry of a state in key order.
type ScoreDigest struct {
	h       hash.Hash
	entries int
}

// NewScoreDigest starts an empty digest.
func NewScoreDigest() *ScoreDigest { return &ScoreDigest{h: sha256.New()} }

// Add hashes one entry if its prefix holds scores; entries come in key order.
func (d *ScoreDigest) Add(key, value []byte) {
	if p, ok := PrefixOf(key); !ok || !p.Score {
		return
	}
	var n [binary.MaxVarintLen64]byte
	d.h.Write(n[:binary.PutUvarint(n[:], uint64(len(key)))])
	d.h.Write(key)
	d.h.Write(n[:binary.PutUvarint(n[:], uint64(len(value)))])
	d.h.Write(value)
	d.entries++
}

// Entries is the number of score entries hashed so far.
func (d *ScoreDigest) Entries() int { return d.entries }

// Hex is the digest of the entries added so far, in hex.
func (d *ScoreDigest) Hex() string { return hex.EncodeToString(d.h.Sum(nil)) }

// DigestScores digests the score entries the snapshot reads, prefix by
// prefix in byte order (which is key order): it reads those entries only.
func (s Snapshot) DigestScores() *ScoreDigest {
	d := NewScoreDigest()
	for _, p := range Layout {
		if !p.Score {
			continue
		}
		opts := badger.DefaultIteratorOptions
		opts.Prefix = []byte{p.Byte}
		it := s.Txn.NewIterator(opts)
		for it.Rewind(); it.Valid(); it.Next() {
			item := it.Item()
			v, err := item.ValueCopy(nil)
			if err != nil {
				it.Close()
				panic("store: badger read " + hex.EncodeToString(item.Key()) + ": " + err.Error())
			}
			d.Add(item.KeyCopy(nil), v)
		}
		it.Close()
	}
	return d
}
