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
)

func (s Status) String() string {
	switch s {
	case StatusPending:
		return "pending"
	case StatusFinal:
		return "final"
	case StatusExpired:
		return "expired"
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
