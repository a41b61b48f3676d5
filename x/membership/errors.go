package membership

import (
	"errors"
	"fmt"
)

// ErrInvalidInput is wrapped by every *InputError: a parameter or an
// argument outside its range.
var ErrInvalidInput = errors.New("membership: invalid input")

// ErrStaleWork: the block the registration's work is bound to is not one of
// the MaxPowAgeBlocks blocks before the registration's block (too old, or
// not committed yet). The app gives it its own result code.
var ErrStaleWork = errors.New("membership: the work is bound to a block outside the accepted window")

// ErrInsufficientWork: the seal of the registration does not meet the
// difficulty in force. The app gives it its own result code.
var ErrInsufficientWork = errors.New("membership: the seal does not meet the difficulty")

// ErrBlockFull: this block already holds MaxRegistrationsPerBlock
// registrations.
var ErrBlockFull = errors.New("membership: the block holds its maximum of registrations")

// InputError names the field, its value and the rule it broke.
type InputError struct {
	Field string
	Value any
	Rule  string
}

func (e *InputError) Error() string {
	return fmt.Sprintf("membership: %s = %v: %s", e.Field, e.Value, e.Rule)
}

func (e *InputError) Unwrap() error { return ErrInvalidInput }
