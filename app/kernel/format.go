package kernel

import (
	"encoding/hex"
	"strconv"
	"strings"
)

// U64s and I64s format integers for events and receipts.
func U64s(v uint64) string { return strconv.FormatUint(v, 10) }

// I64s formats a signed integer.
func I64s(v int64) string { return strconv.FormatInt(v, 10) }

// BoolStr formats a boolean as "true" or "false".
func BoolStr(b bool) string { return strconv.FormatBool(b) }

func uidAt(n uint32, burn uint16) uint32 {
	if n >= uint32(burn) {
		return n + 1
	}
	return n
}

// Hexs formats bytes as lower-case hex for events.
func Hexs(b []byte) string { return hex.EncodeToString(b) }

// JoinFields names fields (indices of a vote's values) comma-separated, in
// the given order: what receipts and events say of unbracketed medians.
func JoinFields(fields []int, name func(int) string) string {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = name(f)
	}
	return strings.Join(names, ",")
}
