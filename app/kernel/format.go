package kernel

import (
	"encoding/hex"
	"strconv"
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
