package validator

import (
	"errors"
	"fmt"
)

// ConfigError is an option of the configuration that Run cannot work with.
type ConfigError struct {
	Option string // section.key
	Reason string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("validator config: [%s]: %s", e.Option, e.Reason)
}

// ErrNotValidator: the configured key is not a validator's report key on
// the chain, so the chain would refuse every report it signs.
var ErrNotValidator = errors.New("the key is not a validator's report key on this chain")

// NotValidatorError is Open's refusal of a key that is no validator's
// report key (errors.Is ErrNotValidator).
type NotValidatorError struct {
	Key    string // the key's name in <home>/keys
	PubKey string // hex
}

func (e *NotValidatorError) Error() string {
	return fmt.Sprintf("[chain] key %q (%s): %v (keys show-consensus prints a validator's report key)", e.Key, e.PubKey, ErrNotValidator)
}

// Is makes errors.Is(err, ErrNotValidator) hold.
func (e *NotValidatorError) Is(target error) bool { return target == ErrNotValidator }

// OutputError is a measurement command's output that is not one
// measurement of the submission's track within the chain's ranges. The
// command is run again at the next poll.
type OutputError struct {
	Submission uint64
	Reason     string
}

func (e *OutputError) Error() string {
	return fmt.Sprintf("measurement of submission %d: %s", e.Submission, e.Reason)
}
