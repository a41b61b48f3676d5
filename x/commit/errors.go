package commit

import (
	"errors"
	"fmt"
)

// ErrInvalidInput is wrapped by every *InputError: a field of the wrong
// size or outside its range.
var ErrInvalidInput = errors.New("commit: invalid input")

// ErrMismatch: the revealed payload and salt do not open the commitment
// under this chain id, sender and uid.
var ErrMismatch = errors.New("commit: reveal does not match the commitment")

// InputError names the field and the value that was wrong.
type InputError struct {
	Field string
	Value any
	Rule  string
}

func (e *InputError) Error() string {
	return fmt.Sprintf("commit: %s = %v: %s", e.Field, e.Value, e.Rule)
}

func (e *InputError) Unwrap() error { return ErrInvalidInput }
