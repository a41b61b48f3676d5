package quorum

import (
	"errors"
	"fmt"
)

// ErrInvalidInput is wrapped by every error of this package: a vote, power or
// value that Aggregate or WeightedMedian cannot accept (a non-positive power,
// a duplicate validator, a value with too many places, ...). Branch on it with
// errors.Is; the *InputError around it names the field and value.
var ErrInvalidInput = errors.New("invalid quorum input")

// InputError names the input field, its value and why it was rejected. Its
// message is stored in receipts (the app records failed aggregations), so
// its format is part of consensus: "<field> = <value>: <reason>".
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

// indexed names one element of a list field: "power[2]".
func indexed(field string, i int) string { return fmt.Sprintf("%s[%d]", field, i) }
