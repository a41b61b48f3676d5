package mirror

import (
	"errors"
	"fmt"
)

// ErrInvalidInput is wrapped by every error of this package that refuses
// an argument: a parameter out of range, a malformed or non-canonical
// snapshot, a vote that cannot be counted, a key that is no key. Branch on
// it with errors.Is; the *InputError or *SnapshotError around it names the
// field and the value.
var ErrInvalidInput = errors.New("mirror: invalid input")

// Snapshot refusals. Each is wrapped by a *SnapshotError that names the
// entry, and each also matches ErrInvalidInput.
var (
	// ErrTooManyEntries: the snapshot holds more than Params.MaxEntries.
	ErrTooManyEntries = errors.New("mirror: more entries than max_entries")
	// ErrUnsorted: an entry's uid is below the uid of the entry before it.
	ErrUnsorted = errors.New("mirror: entries not sorted by uid")
	// ErrDuplicateUID: two entries have the same uid.
	ErrDuplicateUID = errors.New("mirror: duplicate uid")
	// ErrUIDOutOfRange: a uid is not below Params.MaxEntries (the parent
	// chain's uids are dense, 0 to n-1).
	ErrUIDOutOfRange = errors.New("mirror: uid not below max_entries")
	// ErrRegisteredAfterParent: an entry's registration block is after the
	// parent block the snapshot describes.
	ErrRegisteredAfterParent = errors.New("mirror: registered after the snapshot's parent block")
	// ErrMalformed: the bytes are not a snapshot encoding (bad length, bad
	// tag, trailing bytes).
	ErrMalformed = errors.New("mirror: malformed snapshot encoding")
)

// Binding refusals. The app gives each its own result code.
var (
	// ErrBadSignature: the signature does not verify under the hotkey, over
	// the binding message either raw or in polkadot.js' <Bytes> wrapping.
	ErrBadSignature = errors.New("mirror: the hotkey's signature does not verify")
	// ErrStaleBinding: the binding's parent block is more than
	// MaxBlocksBehind away from the final snapshot's parent block.
	ErrStaleBinding = errors.New("mirror: the binding's parent block is outside the accepted window")
	// ErrSignedBeforeRegistration: the binding was signed at a parent block
	// before the uid's registration: it belongs to an earlier holder of the
	// hotkey on this uid, or it is a replay.
	ErrSignedBeforeRegistration = errors.New("mirror: the binding predates the uid's registration")
	// ErrUnknownUID: the uid is not in the final snapshot.
	ErrUnknownUID = errors.New("mirror: the uid is not in the final snapshot")
	// ErrBindingNotNewer: the uid already has a binding signed at the same
	// or a later parent block; a binding replaces another only if it was
	// signed after it (Supersedes), so a rotated-out tx key cannot replay
	// its old binding.
	ErrBindingNotNewer = errors.New("mirror: the uid's binding was signed at the same or a later parent block")
)

// Attestation refusals.
var (
	// ErrStaleAttestation: the attested parent block is not after the last
	// final one.
	ErrStaleAttestation = errors.New("mirror: the attested parent block is not after the last final one")
)

// InputError names the field, its value and the rule it broke.
type InputError struct {
	Field string
	Value any
	Rule  string
}

func (e *InputError) Error() string {
	return fmt.Sprintf("mirror: %s = %v: %s", e.Field, e.Value, e.Rule)
}

// Unwrap lets errors.Is(err, ErrInvalidInput) hold.
func (e *InputError) Unwrap() error { return ErrInvalidInput }

// SnapshotError names the entry of a snapshot that Validate or Decode
// refused (Index -1 when the snapshot as a whole is refused) and the reason,
// one of the snapshot sentinels above.
type SnapshotError struct {
	Index int
	UID   uint32
	Err   error
}

func (e *SnapshotError) Error() string {
	if e.Index < 0 {
		return e.Err.Error()
	}
	return fmt.Sprintf("%v: entries[%d] (uid %d)", e.Err, e.Index, e.UID)
}

// Unwrap lets errors.Is match both the reason and ErrInvalidInput.
func (e *SnapshotError) Unwrap() []error { return []error{e.Err, ErrInvalidInput} }
