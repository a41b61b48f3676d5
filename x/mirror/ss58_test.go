package mirror

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// Published (address, public key, prefix) triples.
var ss58Vectors = []struct {
	source string
	addr   string
	key    string
	prefix uint16
}{
	// subkey inspect //Alice: the well-known development account.
	{"subkey //Alice", "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY", "d43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d", 42},
	// mrtnetwork/blockchain_utils, test/address/substrate/test_vector.dart.
	{"blockchain_utils ss58_format 2", "ERhckLKG8dSw7uSH3pixNMkE3LvRRh6wB47BxRteGgcbzjb", "51e5a6beae03719e2e9335a3994f8da03be34d6c71fac792c375b81e6faf3330", 2},
	{"blockchain_utils ss58_format 10", "23dKgUghw8q96xGPCybiSRDkbNJMxNK7riGoEvo4GyxFdSAe", "79d1b9f483f005398e8a9ffa6378990a6d302b882848220dfa68a50b6f2090f2", 10},
	{"blockchain_utils ss58_format 30", "42AVx9HAkErLQ7HEwPycg5ffboteYe3DtZzQs5kAY11eWTf3", "446b851030cdfe955cacdb564f089419da17ce24de78b9027d7d0eb60d12ec9c", 30},
	{"blockchain_utils ss58_format 59", "6xoQrYS9PWW2vQqBHbVaxaEDf82enqsatyNpa2xspJaCFqYS", "c0922153608d966efc4fedb67825a8bb79ed689689dda2592f446e4d997842a7", 59},
}

func TestSS58Vectors(t *testing.T) {
	for _, v := range ss58Vectors {
		t.Run(v.source, func(t *testing.T) {
			prefix, key, err := DecodeSS58(v.addr)
			if err != nil || prefix != v.prefix || key != key32(t, v.key) {
				t.Fatalf("DecodeSS58 = %d, %x, %v; want %d, %s", prefix, key, err, v.prefix, v.key)
			}
			addr, err := EncodeSS58(v.prefix, key32(t, v.key))
			if err != nil || addr != v.addr {
				t.Fatalf("EncodeSS58 = %q, %v; want %q", addr, err, v.addr)
			}
		})
	}
	alice, err := HotkeyFromSS58("5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY", BittensorSS58Prefix)
	if err != nil || alice != key32(t, "d43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d") {
		t.Fatalf("HotkeyFromSS58(alice) = %x, %v", alice, err)
	}
	if _, err := HotkeyFromSS58("ERhckLKG8dSw7uSH3pixNMkE3LvRRh6wB47BxRteGgcbzjb", BittensorSS58Prefix); !errors.Is(err, ErrInvalidInput) {
		t.Fatalf("a Kusama address as a Bittensor hotkey: %v", err)
	}
}

func TestSS58TwoBytePrefix(t *testing.T) {
	// Hand-derived from the ss58 rule: 1284 = 0b101_0000_0100 → bits 2..7
	// (000001) | 0x40 = 0x41, then bits 8..13 (000101) with bits 0..1 (00)
	// on top = 0x05. 255 → 0x7f, 0xc0. 16383 → 0x7f, 0xff.
	for _, tt := range []struct {
		prefix uint16
		want   []byte
	}{{64, []byte{0x50, 0x00}}, {255, []byte{0x7f, 0xc0}}, {1284, []byte{0x41, 0x05}}, {16383, []byte{0x7f, 0xff}}} {
		got := appendPrefix(nil, tt.prefix)
		if string(got) != string(tt.want) {
			t.Errorf("appendPrefix(%d) = %x, want %x", tt.prefix, got, tt.want)
		}
		p, n, ok := readPrefix(got)
		if !ok || p != tt.prefix || n != 2 {
			t.Errorf("readPrefix(%x) = %d, %d, %v", got, p, n, ok)
		}
	}
	if _, err := EncodeSS58(16384, [32]byte{}); !errors.Is(err, ErrInvalidInput) {
		t.Fatalf("prefix 16384: %v", err)
	}
}

func TestSS58Refusals(t *testing.T) {
	alice := "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"
	// The last character changed: the checksum no longer matches.
	badSum := alice[:len(alice)-1] + "Z"
	// A two-byte form of a one-byte prefix (42 as 0x4a 0x80): not canonical.
	nonCanonical := base58Encode(append([]byte{0x4a, 0x80}, make([]byte, 34)...))
	for name, addr := range map[string]string{
		"empty":             "",
		"bad checksum":      badSum,
		"0 is not base58":   "0" + alice[1:],
		"l is not base58":   strings.Replace(alice, "a", "l", 1),
		"too short":         alice[:len(alice)-2],
		"too long":          alice + "1",
		"33-byte payload":   base58Encode(make([]byte, 36)),
		"prefix byte ≥ 128": base58Encode(append([]byte{0x80}, make([]byte, 35)...)),
		"non-canonical":     nonCanonical,
		"absurdly long":     strings.Repeat("2", 100),
	} {
		if _, _, err := DecodeSS58(addr); !errors.Is(err, ErrInvalidInput) {
			t.Errorf("%s (%q): err = %v, want ErrInvalidInput", name, addr, err)
		}
	}
}

// TestPropertySS58RoundTrip: any key under any prefix round-trips, and a
// one-character change of the address is refused or decodes to something
// else (never silently to the same key under the same prefix).
func TestPropertySS58RoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 58))
	for i := 0; i < 2000; i++ {
		var key [32]byte
		for j := range key {
			key[j] = byte(r.UintN(256))
		}
		if i%7 == 0 {
			key[0], key[1] = 0, 0 // leading zero bytes
		}
		prefix := uint16(r.UintN(MaxSS58Prefix + 1))
		if i%2 == 0 {
			prefix = uint16(r.UintN(64))
		}
		addr, err := EncodeSS58(prefix, key)
		if err != nil {
			t.Fatal(err)
		}
		p, k, err := DecodeSS58(addr)
		if err != nil || p != prefix || k != key {
			t.Fatalf("round trip of %d/%x via %q = %d/%x, %v", prefix, key, addr, p, k, err)
		}
		pos := r.IntN(len(addr))
		c := base58Alphabet[r.IntN(58)]
		mutated := addr[:pos] + string(c) + addr[pos+1:]
		if mutated == addr {
			continue
		}
		if p2, k2, err := DecodeSS58(mutated); err == nil && p2 == prefix && k2 == key {
			t.Fatalf("%q and %q decode to the same key", addr, mutated)
		}
	}
}
