package valset

import (
	"bytes"
	"fmt"
)

// Kind is what a Change does.
type Kind uint8

// The kinds of change. Their numbers may be stored; never renumber them.
const (
	KindAdd             Kind = 1 // add Validator
	KindSetPower        Kind = 2 // set Target's power to Power
	KindRemove          Kind = 3 // remove Target (power 0 for CometBFT)
	KindRotateReportKey Kind = 4 // give Target the report key ReportKey
)

func (k Kind) String() string {
	switch k {
	case KindAdd:
		return "add"
	case KindSetPower:
		return "set_power"
	case KindRemove:
		return "remove"
	case KindRotateReportKey:
		return "rotate_report_key"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Change is one change of a validator set. Each kind uses its own fields
// and leaves the others zero, so that a change has one form only:
//
//	KindAdd:             Validator
//	KindSetPower:        Target, Power
//	KindRemove:          Target
//	KindRotateReportKey: Target, ReportKey
//
// Make them with AddValidator, SetPower, Remove and RotateReportKey.
type Change struct {
	Kind      Kind
	Validator Validator
	Target    Ref
	Power     int64
	ReportKey []byte
}

// AddValidator adds v.
func AddValidator(v Validator) Change { return Change{Kind: KindAdd, Validator: v.clone()} }

// SetPower sets the power of the validator target refers to.
func SetPower(target Ref, power int64) Change {
	return Change{Kind: KindSetPower, Target: target, Power: power}
}

// Remove removes the validator target refers to.
func Remove(target Ref) Change { return Change{Kind: KindRemove, Target: target} }

// RotateReportKey gives the validator target refers to a new report key.
func RotateReportKey(target Ref, key []byte) Change {
	return Change{Kind: KindRotateReportKey, Target: target, ReportKey: bytes.Clone(key)}
}

func (c Change) String() string {
	switch c.Kind {
	case KindAdd:
		return fmt.Sprintf("add %q power %d", c.Validator.Name, c.Validator.Power)
	case KindSetPower:
		return fmt.Sprintf("set_power %s %d", c.Target, c.Power)
	case KindRemove:
		return fmt.Sprintf("remove %s", c.Target)
	case KindRotateReportKey:
		return fmt.Sprintf("rotate_report_key %s %s", c.Target, hexOf(c.ReportKey))
	}
	return c.Kind.String()
}

// check checks the change's fields on their own, without the set.
func (c Change) check(field string) error {
	if err := c.checkUnused(field); err != nil {
		return err
	}
	switch c.Kind {
	case KindAdd:
		return c.Validator.check(field + ".validator")
	case KindSetPower:
		if err := c.Target.check(field + ".target"); err != nil {
			return err
		}
		return checkPower(field+".power", c.Power)
	case KindRemove:
		return c.Target.check(field + ".target")
	case KindRotateReportKey:
		if err := c.Target.check(field + ".target"); err != nil {
			return err
		}
		return checkKey(field+".report_key", c.ReportKey)
	}
	return inputErr(ErrInvalidInput, field+".kind", uint8(c.Kind), "unknown change kind")
}

// checkUnused refuses a field that c's kind does not use.
func (c Change) checkUnused(field string) error {
	add := c.Kind == KindAdd
	zeroValidator := c.Validator.Name == "" && c.Validator.PubKey == nil && c.Validator.Power == 0 && c.Validator.ReportKey == nil
	switch {
	case !add && !zeroValidator:
		return inputErr(ErrInvalidInput, field+".validator", c.Validator.Name, "only an add carries a validator")
	case add && (c.Target.Name != "" || c.Target.PubKey != nil):
		return inputErr(ErrInvalidInput, field+".target", c.Target, "an add has no target")
	case c.Kind != KindSetPower && c.Power != 0:
		return inputErr(ErrInvalidInput, field+".power", c.Power, "only a set_power carries a power")
	case c.Kind != KindRotateReportKey && c.ReportKey != nil:
		return inputErr(ErrInvalidInput, field+".report_key", hexOf(c.ReportKey), "only a rotate_report_key carries a report key")
	}
	return nil
}
