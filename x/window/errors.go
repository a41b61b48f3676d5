package window

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error of this package wraps exactly one of them, so a
// caller can branch with errors.Is and still print a message that names the
// field and value.
var (
	// ErrInvalidParams is wrapped by every *ParamError.
	ErrInvalidParams = errors.New("invalid window params")
	// ErrInvalidInput is wrapped by every *InputError: a value handed to an
	// update that the update cannot accept (a score outside [0,1], a negative
	// count, a value with more than 18 places, ...).
	ErrInvalidInput = errors.New("invalid window input")
	// ErrTimeBackwards is returned when a block time is earlier than the last one seen.
	ErrTimeBackwards = errors.New("block time went backwards")
	// ErrOverflow is returned when an integer sum would not fit in its type.
	ErrOverflow = errors.New("integer overflow")
)

// ParamError names the parameter, its value and why it was rejected.
type ParamError struct {
	Field  string
	Value  string
	Reason string
}

func (e *ParamError) Error() string {
	return fmt.Sprintf("window params: %s = %s: %s", e.Field, e.Value, e.Reason)
}

// Unwrap lets errors.Is(err, ErrInvalidParams) hold.
func (e *ParamError) Unwrap() error { return ErrInvalidParams }

func paramErr(field string, value any, reason string) error {
	return &ParamError{Field: field, Value: fmt.Sprint(value), Reason: reason}
}

// InputError names the input field, its value and why an update rejected it.
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

func inputErr(field string, value any, reason string) error {
	return &InputError{Field: field, Value: fmt.Sprint(value), Reason: reason}
}

// indexed names one element of a list field: "subs[2]".
func indexed(field string, i int) string { return fmt.Sprintf("%s[%d]", field, i) }
