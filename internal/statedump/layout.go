package statedump

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/scoringsubnet/validatord/app/store"
)

// Prefix is one key prefix of the application's state, as app/store lays it out.
type Prefix = store.Prefix

// Layout is every prefix the application writes, in byte order (app/store's table).
var Layout = store.Layout

// PrefixOf returns the layout entry of key's first byte; ok is false for an unknown prefix
// (or an empty key).
func PrefixOf(key []byte) (Prefix, bool) { return store.PrefixOf(key) }

// KeyName renders a key for people: "miner/3", "task_miner/7/12", "account/<hex>"; an unknown
// prefix or a key whose tail is not whole uint64s is "0x<hex>".
func KeyName(key []byte) string {
	p, ok := PrefixOf(key)
	if !ok {
		return "0x" + hex.EncodeToString(key)
	}
	rest := key[1:]
	if len(rest) == 0 {
		return p.Name
	}
	if p.RawKey {
		return p.Name + "/" + hex.EncodeToString(rest)
	}
	if len(rest)%8 != 0 {
		return "0x" + hex.EncodeToString(key)
	}
	parts := []string{p.Name}
	for i := 0; i < len(rest); i += 8 {
		parts = append(parts, fmt.Sprint(binary.BigEndian.Uint64(rest[i:i+8])))
	}
	return strings.Join(parts, "/")
}
