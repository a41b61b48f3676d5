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
	// StatusExpired: the deadline came with at most 1/3 of the power reported;
	// the item stays unscored.
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

// quorumStatus applies the 2/3 quorum and the 1/3 deadline rule.
func quorumStatus(reported, total int64, atDeadline bool) Status {
	switch {
	case mulGreater(reported, 3, total, 2):
		return StatusFinal
	case !atDeadline:
		return StatusPending
	case mulGreater(reported, 3, total, 1):
		return StatusFinal
	default:
		return StatusExpired
	}
}

// mulGreater reports a×ka > b×kb for non-negative a, b and small positive
// ka, kb, in 128-bit arithmetic so that it never overflows.
func mulGreater(a int64, ka uint64, b int64, kb uint64) bool {
	ahi, alo := bits.Mul64(uint64(a), ka)
	bhi, blo := bits.Mul64(uint64(b), kb)
	return ahi > bhi || (ahi == bhi && alo > blo)
}
