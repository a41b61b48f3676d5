package signrec

import (
	"errors"
	"fmt"
)

// ErrLocked is matched (errors.Is) by the *LockedError Open returns when
// another process holds the record.
var ErrLocked = errors.New("signrec: record is locked by another process")

// ErrClosed is returned by calls on a closed Record.
var ErrClosed = errors.New("signrec: record is closed")

// LockedError reports that another process holds the record at Path.
type LockedError struct {
	Path string
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("signrec: %s is locked by another process (is another validator daemon running with this home?)", e.Path)
}

func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// ConflictError is Sign's refusal: the submission was already signed with
// other bytes. Nothing was written.
type ConflictError struct {
	Submission uint64
	Signed     Entry
	Wanted     []byte
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("signrec: refusing to sign submission %d: a different measurement was already signed at height %d (%s); signing this one would be a conflicting signature",
		e.Submission, e.Signed.Height, e.Signed.Time.UTC().Format("2006-01-02T15:04:05Z"))
}

// CorruptError reports a line of the record that cannot be read and is not
// a torn last line. Line counts from 1.
type CorruptError struct {
	Path string
	Line int
	Err  error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("signrec: %s line %d is corrupt: %v; the record cannot be trusted, inspect or restore it before signing again", e.Path, e.Line, e.Err)
}

func (e *CorruptError) Unwrap() error { return e.Err }

// IOError reports a failed filesystem operation on the record. After a
// failed append the Record refuses all further signing (it no longer knows
// what reached the disk); reopen it.
type IOError struct {
	Op   string
	Path string
	Err  error
}

func (e *IOError) Error() string {
	return fmt.Sprintf("signrec: %s %s: %v", e.Op, e.Path, e.Err)
}

func (e *IOError) Unwrap() error { return e.Err }

// EntryError reports an Entry that cannot be signed, such as one with an
// empty measurement.
type EntryError struct {
	Submission uint64
	Reason     string
}

func (e *EntryError) Error() string {
	return fmt.Sprintf("signrec: entry for submission %d: %s", e.Submission, e.Reason)
}
