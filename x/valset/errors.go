package valset

import (
	"errors"
	"fmt"
)

// The sentinel errors. Each has a stable name (its message), which the app
// maps to a result code; names are never changed or reused. Every error of
// this package wraps exactly one of them, most inside an *InputError that
// names the field and value. Branch with errors.Is, or take the name with
// Name.
var (
	// ErrInvalidInput: a field is malformed on its own: a key that is not
	// 32 bytes, an empty or overlong name, a power ≤ 0 or above the limit,
	// an unknown change kind, a field the change kind does not use, a
	// proposal that is both or neither a set and a params proposal.
	ErrInvalidInput = errors.New("invalid_input")
	// ErrDuplicateKey: a consensus or report key that a validator of the
	// set already holds, counting validators added by earlier changes of
	// the same proposal.
	ErrDuplicateKey = errors.New("duplicate_key")
	// ErrDuplicateName: a name that a validator of the set already holds.
	ErrDuplicateName = errors.New("duplicate_name")
	// ErrMinerKey: a report key that is a registered miner's (Miners).
	ErrMinerKey = errors.New("miner_key")
	// ErrUnknownValidator: a change or a slash names no validator of the set.
	ErrUnknownValidator = errors.New("unknown_validator")
	// ErrEmptySet: the change would remove the last validator.
	ErrEmptySet = errors.New("empty_set")
	// ErrTotalPower: the total power would exceed MaxTotalVotingPower, or
	// fall below MinTotalPower, or the set's total is already below it (no
	// block may change its power: floor(total/3) = 0).
	ErrTotalPower = errors.New("total_power")
	// ErrTooManyValidators: the set after the proposal would hold more than
	// Params.MaxValidators validators.
	ErrTooManyValidators = errors.New("too_many_validators")
	// ErrTooManyChanges: more than Params.MaxChanges changes in a proposal.
	ErrTooManyChanges = errors.New("too_many_changes")
	// ErrExpiry: the expiry height is not in (proposed, proposed +
	// Params.MaxProposalBlocks].
	ErrExpiry = errors.New("expiry")
	// ErrExpired: the height is past the proposal's expiry height.
	ErrExpired = errors.New("expired")
	// ErrActivation: a params proposal activates less than
	// Params.MinUpgradeDelayBlocks after its expiry height.
	ErrActivation = errors.New("activation")
	// ErrNotValidator: an approval from a key that is not a validator of
	// the set.
	ErrNotValidator = errors.New("not_validator")
	// ErrDuplicateApproval: the validator already approved the proposal.
	ErrDuplicateApproval = errors.New("duplicate_approval")
	// ErrInvalidParams: a field of Params is out of its range.
	ErrInvalidParams = errors.New("invalid_params")
)

// Errors is the table of the sentinels, in the order of their declaration;
// TestErrorsTable checks it against doc.go.
var Errors = []error{
	ErrInvalidInput, ErrDuplicateKey, ErrDuplicateName, ErrMinerKey,
	ErrUnknownValidator, ErrEmptySet, ErrTotalPower, ErrTooManyValidators,
	ErrTooManyChanges, ErrExpiry, ErrExpired, ErrActivation,
	ErrNotValidator, ErrDuplicateApproval, ErrInvalidParams,
}

// Name returns the stable name of the sentinel err wraps ("duplicate_key"),
// or "" when err is nil or not of this package.
func Name(err error) string {
	for _, s := range Errors {
		if errors.Is(err, s) {
			return s.Error()
		}
	}
	return ""
}

// InputError names the field, its value and why it was refused; Err is the
// sentinel it wraps. Its message is deterministic (it may reach events and
// logs): "valset: <name>: <field> = <value>: <reason>".
type InputError struct {
	Field  string
	Value  string
	Reason string
	Err    error
}

func (e *InputError) Error() string {
	return fmt.Sprintf("valset: %v: %s = %s: %s", e.Err, e.Field, e.Value, e.Reason)
}

// Unwrap lets errors.Is(err, <sentinel>) hold.
func (e *InputError) Unwrap() error { return e.Err }

func inputErr(sentinel error, field string, value any, reason string) error {
	return &InputError{Field: field, Value: fmt.Sprint(value), Reason: reason, Err: sentinel}
}

// indexed names one element of a list field: "changes[2]".
func indexed(field string, i int) string { return fmt.Sprintf("%s[%d]", field, i) }
