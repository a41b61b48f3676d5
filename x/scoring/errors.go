package scoring

import (
	"errors"
	"fmt"
)

// ErrInvalidInput is wrapped by every InputError, so callers can test with errors.Is.
var ErrInvalidInput = errors.New("invalid input")

// InputError names the field and value of an input that a formula cannot accept.
type InputError struct {
	Field  string
	Value  string
	Reason string
}

func (e *InputError) Error() string {
	return fmt.Sprintf("%s = %s: %s", e.Field, e.Value, e.Reason)
}

// Unwrap lets errors.Is(err, ErrInvalidInput) hold.
func (e *InputError) Unwrap() error { return ErrInvalidInput }

func inputErr(field, value, reason string) error {
	return &InputError{Field: field, Value: value, Reason: reason}
}
