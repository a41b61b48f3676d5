package genesis

import (
	"errors"
	"fmt"
)

// ErrInvalidGenesis is wrapped by every *FieldError: of app_state and of the
// consensus params (CheckConsensusParams).
var ErrInvalidGenesis = errors.New("invalid genesis")

// FieldError names the genesis field, its value and why it was rejected.
type FieldError struct {
	Field  string
	Value  string
	Reason string
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("genesis: %s = %s: %s", e.Field, e.Value, e.Reason)
}

// Unwrap lets errors.Is(err, ErrInvalidGenesis) hold.
func (e *FieldError) Unwrap() error { return ErrInvalidGenesis }

func fieldErr(field string, value any, reason string) error {
	return &FieldError{Field: field, Value: fmt.Sprint(value), Reason: reason}
}

// wrapParams turns the error of a params package's Validate into a FieldError
// under the given section.
func wrapParams(section string, err error) error {
	if err == nil {
		return nil
	}
	return &FieldError{Field: section, Value: "(see reason)", Reason: err.Error()}
}
