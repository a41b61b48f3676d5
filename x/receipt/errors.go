package receipt

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

var (
	// ErrMalformed is matched (errors.Is) by every error Verify returns for a
	// receipt it cannot recompute: a name unknown, missing or given twice, a
	// value that does not parse, a shape the app never records.
	ErrMalformed = errors.New("malformed receipt")
	// ErrNoReceipt is returned by Verify for an Input without a receipt.
	ErrNoReceipt = errors.New("no receipt")
)

// NameError names the fields of one receipt section (inputs, params, values)
// that are given twice, not known, or missing.
type NameError struct {
	Section   string
	Duplicate []string
	Unknown   []string
	Missing   []string
	// Hint follows each quoted unknown name, e.g. " (no vote in the answer)".
	Hint string
}

func (e *NameError) Error() string {
	unknown := make([]string, len(e.Unknown))
	for i, u := range e.Unknown {
		unknown[i] = strconv.Quote(u) + e.Hint
	}
	var parts []string
	for _, p := range []struct {
		what  string
		names []string
	}{{"duplicate", e.Duplicate}, {"unknown", unknown}, {"missing", e.Missing}} {
		if len(p.names) > 0 {
			parts = append(parts, p.what+" "+strings.Join(p.names, ", "))
		}
	}
	return e.Section + ": " + strings.Join(parts, "; ")
}

// Is makes a NameError match ErrMalformed.
func (e *NameError) Is(target error) bool { return target == ErrMalformed }

// nameError is nil when no name is wrong.
func nameError(section string, dups, unknown, missing []string) error {
	if len(dups)+len(unknown)+len(missing) == 0 {
		return nil
	}
	return &NameError{Section: section, Duplicate: dups, Unknown: unknown, Missing: missing}
}

// FieldError is a receipt value (or shape) that cannot be recomputed; Field
// names it as "section.name" ("" when the problem is not one field's).
type FieldError struct {
	Field string
	Err   error
}

func (e *FieldError) Error() string {
	if e.Field == "" {
		return e.Err.Error()
	}
	return e.Field + ": " + e.Err.Error()
}

// Unwrap gives the underlying error (often one of x/scoring's).
func (e *FieldError) Unwrap() error { return e.Err }

// Is makes a FieldError match ErrMalformed.
func (e *FieldError) Is(target error) bool { return target == ErrMalformed }

// fieldErr wraps err as the error of one field.
func fieldErr(field string, err error) error { return &FieldError{Field: field, Err: err} }

// fieldErrf is fieldErr of a formatted error (%w wraps).
func fieldErrf(field, format string, args ...any) error {
	return &FieldError{Field: field, Err: fmt.Errorf(format, args...)}
}
