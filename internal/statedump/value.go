package statedump

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/cosmos/gogoproto/proto"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
)

// Value is a decoded value: JSON when the layout knows how to decode it, else the raw bytes
// as hex (Hex set, JSON nil).
type Value struct {
	JSON json.RawMessage
	Hex  string
}

// DecodeValue decodes the value stored under key.
func DecodeValue(key, val []byte) Value {
	p, ok := PrefixOf(key)
	if !ok {
		return Value{Hex: hex.EncodeToString(val)}
	}
	if bz, ok := decodeKnown(p, val); ok {
		return Value{JSON: bz}
	}
	return Value{Hex: hex.EncodeToString(val)}
}

// decodeKnown decodes val by p's kind; ok is false when it does not decode cleanly.
func decodeKnown(p Prefix, val []byte) (json.RawMessage, bool) {
	switch p.Kind {
	case store.KindU64:
		if len(val) != 8 {
			return nil, false
		}
		return json.RawMessage(strconv.FormatUint(binary.BigEndian.Uint64(val), 10)), true
	case store.KindU64s:
		if len(val)%8 != 0 {
			return nil, false
		}
		ns := make([]uint64, len(val)/8)
		for i := range ns {
			ns[i] = binary.BigEndian.Uint64(val[8*i:])
		}
		bz, err := json.Marshal(ns)
		return bz, err == nil
	case store.KindBytes:
		bz, err := json.Marshal(hex.EncodeToString(val))
		return bz, err == nil
	case store.KindText:
		if !utf8.Valid(val) {
			return nil, false
		}
		bz, err := json.Marshal(string(val))
		return bz, err == nil
	case store.KindJSON:
		var buf bytes.Buffer
		if err := json.Compact(&buf, val); err != nil {
			return nil, false
		}
		return buf.Bytes(), true
	case store.KindProto:
		if p.New == nil {
			return nil, false
		}
		m := p.New()
		if err := proto.Unmarshal(val, m); err != nil {
			return nil, false
		}
		bz, err := wire.MessageJSON(m)
		if err != nil {
			return nil, false
		}
		return bz, true
	}
	return nil, false
}
