// Package statedump turns the application's stored state (the key/value entries of its badger
// directory) into a JSON document for auditors, and digests the entries that hold scores.
//
// The key layout mirrors app/keys.go: one prefix byte, then big-endian uint64 parts (or a raw
// public key for accounts). Values are the gogoproto messages of proto/subnet/v1, decoded to
// JSON with bytes fields in hex; a value that does not decode is shown as hex, never dropped.
//
// Usage:
//
//	entries, _ := replay.DumpBadger(dir)  // sorted by key
//	doc := statedump.Build(entries)
//	bz, _ := doc.Encode()                 // indented JSON, keys in byte order
//	digest := statedump.ScoreDigest(entries)
package statedump
