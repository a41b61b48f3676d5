package quorum

import (
	"fmt"
	"math/bits"
)

// Status says whether an item's reports have settled.
type Status int

const (
	// StatusPending: neither the quorum nor the deadline has been reached.
	StatusPending Status = iota
	// StatusFinal: Values hold the weighted medians that count.
	StatusFinal
	// StatusExpired: the deadline came with at most the rule's deadline
	// quorum of the power reported; the item stays unscored.
	StatusExpired
	// StatusContested: the deadline quorum reported, but some field's
	// median is not bracketed (less than 1/3 of the total power reported
	// at or below it, or at or above it), so a coalition below 1/3 could
	// have chosen it; the item stays unscored. Outcome.Unbracketed names
	// the fields.
	StatusContested
)

func (s Status) String() string {
	switch s {
	case StatusPending:
		return "pending"
	case StatusFinal:
		return "final"
	case StatusExpired:
		return "expired"
	case StatusContested:
		return "contested"
	}
	return fmt.Sprintf("status(%d)", int(s))
}

// mulGreater reports a×ka > b×kb for non-negative a, b, in 128-bit
// arithmetic: each product of an int64 and a uint64 fits, so it never
// overflows.
func mulGreater(a int64, ka uint64, b int64, kb uint64) bool {
	ahi, alo := bits.Mul64(uint64(a), ka)
	bhi, blo := bits.Mul64(uint64(b), kb)
	return ahi > bhi || (ahi == bhi && alo > blo)
}
