package lightproof

import (
	"errors"
	"fmt"

	"github.com/cometbft/cometbft/light"
)

// ErrNotProven is matched by every *NotProvenError: an answer whose proof
// does not lead to the verified header's app hash.
var ErrNotProven = errors.New("not proven")

// ErrDiverged is matched when the primary and a witness serve different
// headers at the same height (also the light client's own divergence
// errors, which a *HeaderError or *TrustError carries).
var ErrDiverged = errors.New("the primary and a witness disagree")

// NotProvenError is an answer that did not verify: Reason says what was
// wrong (it matches wire.ErrProof when the proof itself failed).
type NotProvenError struct {
	Store  string
	Key    []byte
	Height int64
	Reason error
}

func (e *NotProvenError) Error() string {
	return fmt.Sprintf("not proven: store %q key %x at height %d: %v; the node's answer cannot be trusted: ask another node (or the witness as --node) and report the node that sent it",
		e.Store, e.Key, e.Height, e.Reason)
}

func (e *NotProvenError) Unwrap() error { return e.Reason }

// Is makes errors.Is(err, ErrNotProven) match.
func (e *NotProvenError) Is(target error) bool { return target == ErrNotProven }

// HeaderError is a header the light client did not verify: Height is the
// header's, Reason the light client's own error.
type HeaderError struct {
	Height int64
	Reason error
}

func (e *HeaderError) Error() string {
	hint := "check the trust root (--trust-height/--trust-hash) and that the primary and witnesses are on the same chain"
	var exp light.ErrOldHeaderExpired
	switch {
	case errors.As(e.Reason, &exp):
		hint = "the trusted header is older than the trust period: trust a more recent header (--trust-height/--trust-hash) or give a longer --trust-period"
	case isDivergence(e.Reason):
		hint = "a witness serves a different header than the primary: one of them is on a fork or lying; do not trust either until their operators explain"
	}
	return fmt.Sprintf("header %d not verified by the light client: %v; %s", e.Height, e.Reason, hint)
}

func (e *HeaderError) Unwrap() error { return e.Reason }

// Is makes errors.Is(err, ErrDiverged) match the light client's divergence
// errors.
func (e *HeaderError) Is(target error) bool { return target == ErrDiverged && isDivergence(e.Reason) }

// TrustError is a trust root New could not settle: Reason says why, Hint
// what to do.
type TrustError struct {
	Height int64
	Reason error
	Hint   string
}

func (e *TrustError) Error() string {
	return fmt.Sprintf("trust root at height %d refused: %v; %s", e.Height, e.Reason, e.Hint)
}

func (e *TrustError) Unwrap() error { return e.Reason }

// Is makes errors.Is(err, ErrDiverged) match the light client's divergence
// errors.
func (e *TrustError) Is(target error) bool { return target == ErrDiverged && isDivergence(e.Reason) }
