package statedump

import (
	"encoding/hex"
	"encoding/json"
	"testing"
)

// FuzzDecode: any stored key and value renders without panicking, as a key name and either
// valid JSON or the value's hex.
func FuzzDecode(f *testing.F) {
	f.Add([]byte{0x00}, []byte{0x08, 0x05})
	f.Add([]byte{0x05, 0, 0, 0, 0, 0, 0, 0, 3}, []byte{0xff})
	f.Add([]byte{0x01}, []byte(`{"a":1}`))
	f.Add([]byte{0x08, 1}, []byte{1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte{}, []byte{})
	f.Fuzz(func(t *testing.T, key, val []byte) {
		if name := KeyName(key); name == "" {
			t.Fatalf("empty name for key %x", key)
		}
		v := DecodeValue(key, val)
		switch {
		case v.JSON != nil && v.Hex != "":
			t.Fatal("both JSON and hex")
		case v.JSON != nil && !json.Valid(v.JSON):
			t.Fatalf("invalid JSON %q for %x=%x", v.JSON, key, val)
		case v.JSON == nil && len(val) > 0 && v.Hex == "":
			t.Fatalf("value %x lost", val)
		}
		doc := Build([]KV{{Key: key, Value: val}})
		if _, err := doc.Encode(); err != nil {
			t.Fatal(err)
		}
		if doc.Entries != 1 || doc.Groups[0].Entries[0].KeyHex != hex.EncodeToString(key) {
			t.Fatalf("entry lost: %+v", doc)
		}
	})
}
