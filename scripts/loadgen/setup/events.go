package setup

import (
	"strconv"

	abcitypes "github.com/cometbft/cometbft/abci/types"
)

// Attr is the value of an event's attribute ("" when absent).
func Attr(ev abcitypes.Event, key string) string {
	for _, a := range ev.Attributes {
		if a.Key == key {
			return a.Value
		}
	}
	return ""
}

// AttrU64 is an event's attribute as an unsigned number (0 when absent or not one).
func AttrU64(ev abcitypes.Event, key string) uint64 {
	v, _ := strconv.ParseUint(Attr(ev, key), 10, 64)
	return v
}

// AttrI64 is an event's attribute as a signed number (0 when absent or not one).
func AttrI64(ev abcitypes.Event, key string) int64 {
	v, _ := strconv.ParseInt(Attr(ev, key), 10, 64)
	return v
}
