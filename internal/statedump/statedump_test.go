package statedump

import (
	"encoding/binary"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cosmos/gogoproto/proto"

	"github.com/scoringsubnet/validatord/app/store"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

func u64s(prefix byte, parts ...uint64) []byte {
	out := []byte{prefix}
	for _, p := range parts {
		out = binary.BigEndian.AppendUint64(out, p)
	}
	return out
}

func mustMarshal(t *testing.T, m proto.Message) []byte {
	t.Helper()
	bz, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return bz
}

func TestKeyName(t *testing.T) {
	for _, tc := range []struct {
		key  []byte
		want string
	}{
		{[]byte{0x00}, "meta"},
		{u64s(0x05, 3), "miner/3"},
		{u64s(0x08, 7, 12), "task_miner/7/12"},
		{u64s(0x11, 0), "epoch/0"},
		{append([]byte{0x04}, 0xab, 0xcd), "account/abcd"},
		{[]byte{0x05, 1, 2}, "0x050102"},        // tail not whole uint64s
		{[]byte{0x7f, 1}, "0x7f01"},             // unknown prefix
		{nil, "0x"},                             // empty key
		{u64s(0x7e, 1), "0x7e0000000000000001"}, // a prefix past the layout
	} {
		if got := KeyName(tc.key); got != tc.want {
			t.Errorf("KeyName(%x) = %q, want %q", tc.key, got, tc.want)
		}
	}
}

func TestDecodeValue(t *testing.T) {
	for _, tc := range []struct {
		name     string
		key, val []byte
		json     string
		hex      string
	}{
		{"u64", u64s(0x08, 1, 0), u64s(0, 9)[1:], "9", ""},
		{"u64 wrong length is hex", u64s(0x08, 1, 0), []byte{1, 2}, "", "0102"},
		{"u64s", []byte{store.PrefixDueBucket}, append(u64s(0, 3)[1:], u64s(0, 1<<40)[1:]...), "[3,1099511627776]", ""},
		{"u64s empty", []byte{store.PrefixDueEntry}, nil, "[]", ""},
		{"u64s wrong length is hex", []byte{store.PrefixDueCursor}, []byte{1, 2, 3}, "", "010203"},
		{"chain id text", []byte{0x02}, []byte("subnet-1"), `"subnet-1"`, ""},
		{"invalid utf8 is hex", []byte{0x02}, []byte{0xff}, "", "ff"},
		{"genesis json compacted", []byte{0x01}, []byte("{ \"a\": 1 }"), `{"a":1}`, ""},
		{"broken genesis json is hex", []byte{0x01}, []byte("{"), "", "7b"},
		{"proto", []byte{0x00}, mustMarshal(t, &subnetv1.Meta{Height: 5}), `{"height":"5"}`, ""},
		{"unknown prefix is hex", []byte{0x7f}, []byte{0xaa}, "", "aa"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := DecodeValue(tc.key, tc.val)
			if tc.json != "" && string(v.JSON) != tc.json {
				t.Fatalf("json %s, want %s", v.JSON, tc.json)
			}
			if v.Hex != tc.hex {
				t.Fatalf("hex %q, want %q", v.Hex, tc.hex)
			}
			if tc.hex == "" && v.JSON == nil {
				t.Fatal("neither json nor hex")
			}
		})
	}
}

func TestMetaAndBuild(t *testing.T) {
	kvs := []KV{
		{Key: []byte{0x00}, Value: mustMarshal(t, &subnetv1.Meta{Height: 42, AppHash: []byte{0xab, 0x01}})},
		{Key: []byte{0x02}, Value: []byte("c")},
		{Key: u64s(0x05, 1), Value: mustMarshal(t, &subnetv1.Miner{})},
		{Key: u64s(0x05, 2), Value: mustMarshal(t, &subnetv1.Miner{})},
		{Key: []byte{0x7f}, Value: []byte{1}},
	}
	h, hash, ok := Meta(kvs)
	if !ok || h != 42 || hash != "AB01" {
		t.Fatalf("Meta = %d %q %v, want 42 AB01 true", h, hash, ok)
	}
	if _, _, ok := Meta(kvs[1:]); ok {
		t.Fatal("Meta found without a meta key")
	}
	doc := Build(kvs)
	var names []string
	for _, g := range doc.Groups {
		names = append(names, g.Prefix+":"+g.Name+":"+string(rune('0'+g.Count)))
	}
	if got := strings.Join(names, " "); got != "0x00:meta:1 0x02:chain_id:1 0x05:miner:2 0x7f:unknown:1" {
		t.Fatalf("groups %s", got)
	}
	if doc.Entries != 5 {
		t.Fatalf("entries %d, want 5", doc.Entries)
	}
	bz, err := doc.Encode()
	if err != nil {
		t.Fatal(err)
	}
	var back Document
	if err := json.Unmarshal(bz, &back); err != nil {
		t.Fatalf("export is not JSON: %v\n%s", err, bz)
	}
	if back.Groups[2].Entries[1].Key != "miner/2" || back.Groups[3].Entries[0].ValueHex != "01" {
		t.Fatalf("round trip lost entries: %+v", back.Groups)
	}
}

func TestScoreDigest(t *testing.T) {
	sub := KV{Key: u64s(0x09, 1), Value: []byte{1}}
	other := KV{Key: u64s(0x05, 1), Value: []byte{2}}
	base := ScoreDigest([]KV{sub})
	// The empty digest is SHA-256 of nothing.
	if got := ScoreDigest(nil); got != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" {
		t.Fatalf("empty digest %s", got)
	}
	if ScoreDigest([]KV{sub, other}) != base {
		t.Fatal("a non-score entry changed the digest")
	}
	if ScoreDigest([]KV{{Key: sub.Key, Value: []byte{2}}}) == base {
		t.Fatal("a changed score did not change the digest")
	}
	// Length prefixes keep key/value boundaries: moving a byte from key to value changes it.
	a := ScoreDigest([]KV{{Key: []byte{0x09, 1}, Value: []byte{2}}})
	b := ScoreDigest([]KV{{Key: []byte{0x09}, Value: []byte{1, 2}}})
	if a == b {
		t.Fatal("key/value boundary not in the digest")
	}
}

// TestDecodeEveryPrefix: every prefix of store.Layout decodes an empty value and 8 bytes
// without panicking (a value kind added to the layout without a case here used to reach
// the proto branch with no message and crash `validatord export`).
func TestDecodeEveryPrefix(t *testing.T) {
	for _, p := range store.Layout {
		for _, val := range [][]byte{nil, u64s(0, 7)[1:]} {
			if v := DecodeValue([]byte{p.Byte}, val); v.JSON == nil && v.Hex != "" && len(val) == 0 {
				t.Errorf("%s: empty value gave hex %q", p.Name, v.Hex)
			}
		}
	}
}
