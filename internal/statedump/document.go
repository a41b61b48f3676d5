package statedump

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/scoringsubnet/validatord/app/store"
)

// KV is one stored entry (the same shape as replay.Entry, kept separate so that this package
// needs no CometBFT).
type KV struct {
	Key   []byte
	Value []byte
}

// Document is the exported state: groups in prefix order, entries in key order.
type Document struct {
	Height  int64   `json:"height"`
	AppHash string  `json:"app_hash"`
	Source  string  `json:"source"`
	Entries int     `json:"entries"`
	Groups  []Group `json:"groups"`
}

// Group is the entries of one key prefix.
type Group struct {
	Prefix  string      `json:"prefix"`
	Name    string      `json:"name"`
	Count   int         `json:"count"`
	Entries []JSONEntry `json:"entries"`
}

// JSONEntry is one decoded entry.
type JSONEntry struct {
	Key      string          `json:"key"`
	KeyHex   string          `json:"key_hex"`
	Value    json.RawMessage `json:"value,omitempty"`
	ValueHex string          `json:"value_hex,omitempty"`
}

// Build groups kvs (sorted by key, unique) by prefix and decodes every value.
func Build(kvs []KV) Document {
	var doc Document
	for _, kv := range kvs {
		prefix, name := groupOf(kv.Key)
		if n := len(doc.Groups); n == 0 || doc.Groups[n-1].Prefix != prefix {
			doc.Groups = append(doc.Groups, Group{Prefix: prefix, Name: name})
		}
		g := &doc.Groups[len(doc.Groups)-1]
		v := DecodeValue(kv.Key, kv.Value)
		g.Entries = append(g.Entries, JSONEntry{Key: KeyName(kv.Key), KeyHex: hex.EncodeToString(kv.Key), Value: v.JSON, ValueHex: v.Hex})
		g.Count++
		doc.Entries++
	}
	return doc
}

// groupOf names the group of a key: its prefix byte, and the layout's name or "unknown".
func groupOf(key []byte) (prefix, name string) {
	if len(key) == 0 {
		return "", "empty"
	}
	prefix = fmt.Sprintf("0x%02x", key[0])
	if p, ok := PrefixOf(key); ok {
		return prefix, p.Name
	}
	return prefix, "unknown"
}

// Encode is the document as indented JSON with a final newline.
func (d Document) Encode() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ScoreDigest is the hex SHA-256 over the entries that hold scores or receipts (the layout's
// Score prefixes), in key order, each as uvarint(len key) key uvarint(len value) value
// (store.ScoreDigest, which the app's "digest" query computes too). Two nodes with the same
// scores have the same digest.
func ScoreDigest(kvs []KV) string {
	d := store.NewScoreDigest()
	for _, kv := range kvs {
		d.Add(kv.Key, kv.Value)
	}
	return d.Hex()
}
