package statedump

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/cosmos/gogoproto/proto"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// valueKind says how a prefix's values are encoded.
type valueKind int

const (
	kindProto valueKind = iota // a gogoproto message (newMsg)
	kindJSON                   // raw JSON bytes
	kindText                   // UTF-8 text
	kindU64                    // one big-endian uint64
)

// Prefix describes one key prefix of the application's state (app/keys.go).
type Prefix struct {
	Byte  byte
	Name  string
	Score bool // its entries hold scores or receipts (part of ScoreDigest)
	// rawKey: the key after the prefix is raw bytes (hex), not uint64 parts.
	rawKey bool
	kind   valueKind
	newMsg func() proto.Message
}

// Layout is every prefix the application writes, in byte order.
var Layout = []Prefix{
	{Byte: 0x00, Name: "meta", kind: kindProto, newMsg: func() proto.Message { return &subnetv1.Meta{} }},
	{Byte: 0x01, Name: "genesis", kind: kindJSON},
	{Byte: 0x02, Name: "chain_id", kind: kindText},
	{Byte: 0x03, Name: "counters", kind: kindProto, newMsg: func() proto.Message { return &subnetv1.Counters{} }},
	{Byte: 0x04, Name: "account", rawKey: true, kind: kindProto, newMsg: func() proto.Message { return &subnetv1.Account{} }},
	{Byte: 0x05, Name: "miner", kind: kindProto, newMsg: func() proto.Message { return &subnetv1.Miner{} }},
	{Byte: 0x06, Name: "task", kind: kindProto, newMsg: func() proto.Message { return &subnetv1.Task{} }},
	{Byte: 0x07, Name: "task_submission", kind: kindU64},
	{Byte: 0x08, Name: "task_miner", kind: kindU64},
	{Byte: 0x09, Name: "submission", Score: true, kind: kindProto, newMsg: func() proto.Message { return &subnetv1.Submission{} }},
	{Byte: 0x0a, Name: "due", kind: kindProto, newMsg: func() proto.Message { return &subnetv1.DueList{} }},
	{Byte: 0x0b, Name: "window", Score: true, kind: kindProto, newMsg: func() proto.Message { return &subnetv1.Window{} }},
	{Byte: 0x0c, Name: "baseline", kind: kindProto, newMsg: func() proto.Message { return &subnetv1.Baseline{} }},
	{Byte: 0x0d, Name: "gas_chain", kind: kindProto, newMsg: func() proto.Message { return &subnetv1.GasChain{} }},
	{Byte: 0x0e, Name: "gas_agent", Score: true, kind: kindProto, newMsg: func() proto.Message { return &subnetv1.GasAgent{} }},
	{Byte: 0x0f, Name: "prediction_set", kind: kindProto, newMsg: func() proto.Message { return &subnetv1.PredictionSet{} }},
	{Byte: 0x10, Name: "truth", kind: kindProto, newMsg: func() proto.Message { return &subnetv1.TruthRound{} }},
	{Byte: 0x11, Name: "epoch", Score: true, kind: kindProto, newMsg: func() proto.Message { return &subnetv1.Epoch{} }},
}

// PrefixOf returns the layout entry of key's first byte; ok is false for an unknown prefix
// (or an empty key).
func PrefixOf(key []byte) (Prefix, bool) {
	if len(key) == 0 {
		return Prefix{}, false
	}
	for _, p := range Layout {
		if p.Byte == key[0] {
			return p, true
		}
	}
	return Prefix{}, false
}

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
	if p.rawKey {
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
