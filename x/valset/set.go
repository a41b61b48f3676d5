package valset

import (
	"bytes"
	"fmt"
	"math"
	"slices"
)

// Limits of a set's power.
const (
	// MaxTotalVotingPower is CometBFT's bound on a validator set's total
	// power (types.MaxTotalVotingPower, spec/abci/abci++_app_requirements.md
	// "Updating the Validator Set"): MaxInt64 / 8 = 2^60 − 1.
	MaxTotalVotingPower = int64(math.MaxInt64) / 8
	// MinTotalPower is the least total power a change may leave: below 3,
	// floor(total/3) = 0 and no later block could change any power.
	MinTotalPower = 3
	// UpdateDelay: validator updates returned by FinalizeBlock at height H
	// take effect at H + 2 (spec/abci/abci++_methods.md, FinalizeBlock).
	UpdateDelay = 2
)

// Set is a validator set: at least one validator, unique names, consensus
// keys and report keys, each power in [1, MaxTotalVotingPower] and the total
// too. Validators are kept in the canonical order, ascending by consensus
// key, so equal sets are equal element by element whatever order they were
// built in. A Set is a value: nothing in this package, nor a caller holding
// its Validators, can change it. The zero Set is empty and only good as
// "none".
type Set struct {
	vals  []Validator
	total int64
}

// NewSet checks vals and returns them as a Set (copied, in canonical
// order). The genesis set comes in here; unlike a change, it may have a
// total below MinTotalPower (such a set can never change its power).
func NewSet(vals []Validator) (Set, error) {
	if len(vals) == 0 {
		return Set{}, inputErr(ErrEmptySet, "validators", "[]", "a set needs at least one validator")
	}
	s := Set{vals: make([]Validator, len(vals))}
	seen := newSeen(len(vals))
	for i, v := range vals {
		field := indexed("validators", i)
		if err := v.check(field); err != nil {
			return Set{}, err
		}
		if err := seen.add(field, v); err != nil {
			return Set{}, err
		}
		if v.Power > MaxTotalVotingPower-s.total {
			return Set{}, inputErr(ErrTotalPower, field+".power", v.Power, fmt.Sprintf("the total power exceeds %d", MaxTotalVotingPower))
		}
		s.total += v.Power
		s.vals[i] = v.clone()
	}
	slices.SortFunc(s.vals, func(a, b Validator) int { return bytes.Compare(a.PubKey, b.PubKey) })
	return s, nil
}

// seen detects duplicates among the validators given to NewSet. The maps
// are only looked up, never ranged over.
type seen struct{ names, keys, reportKeys map[string]int }

func newSeen(n int) seen {
	return seen{make(map[string]int, n), make(map[string]int, n), make(map[string]int, n)}
}

func (s seen) add(field string, v Validator) error {
	if j, ok := s.names[v.Name]; ok {
		return inputErr(ErrDuplicateName, field+".name", fmt.Sprintf("%q", v.Name), fmt.Sprintf("also validators[%d]'s name", j))
	}
	if j, ok := s.keys[string(v.PubKey)]; ok {
		return inputErr(ErrDuplicateKey, field+".pub_key", hexOf(v.PubKey), fmt.Sprintf("also validators[%d]'s consensus key", j))
	}
	if j, ok := s.reportKeys[string(v.ReportKey)]; ok {
		return inputErr(ErrDuplicateKey, field+".report_key", hexOf(v.ReportKey), fmt.Sprintf("also validators[%d]'s report key", j))
	}
	i := len(s.names)
	s.names[v.Name], s.keys[string(v.PubKey)], s.reportKeys[string(v.ReportKey)] = i, i, i
	return nil
}

// Len is the number of validators.
func (s Set) Len() int { return len(s.vals) }

// TotalPower is the sum of the validators' powers.
func (s Set) TotalPower() int64 { return s.total }

// Validator returns a copy of the i-th validator in canonical order.
func (s Set) Validator(i int) Validator { return s.vals[i].clone() }

// Validators returns a copy of the validators in canonical order.
func (s Set) Validators() []Validator {
	out := make([]Validator, len(s.vals))
	for i, v := range s.vals {
		out[i] = v.clone()
	}
	return out
}

// Index returns the position of the validator whose consensus key is
// pubKey, or -1.
func (s Set) Index(pubKey []byte) int {
	i, ok := slices.BinarySearchFunc(s.vals, pubKey, func(v Validator, k []byte) int { return bytes.Compare(v.PubKey, k) })
	if !ok {
		return -1
	}
	return i
}

// IndexOfName returns the position of the validator named name, or -1.
func (s Set) IndexOfName(name string) int {
	return slices.IndexFunc(s.vals, func(v Validator) bool { return v.Name == name })
}

// IndexOfReportKey returns the position of the validator whose report key
// is key, or -1: how the app finds the validator that signed a transaction.
func (s Set) IndexOfReportKey(key []byte) int {
	return slices.IndexFunc(s.vals, func(v Validator) bool { return bytes.Equal(v.ReportKey, key) })
}

// IndexOfAddress returns the position of the validator whose consensus
// address (Address of its key) is addr, or -1: how the app finds the
// validator of a Misbehavior or a VoteInfo.
func (s Set) IndexOfAddress(addr []byte) int {
	return slices.IndexFunc(s.vals, func(v Validator) bool { return bytes.Equal(Address(v.PubKey), addr) })
}

// Resolve returns the position of the validator r refers to, or -1.
func (s Set) Resolve(r Ref) int {
	if r.PubKey != nil {
		return s.Index(r.PubKey)
	}
	return s.IndexOfName(r.Name)
}

// Power is the power of the validator whose consensus key is pubKey, 0 if
// none.
func (s Set) Power(pubKey []byte) int64 {
	if i := s.Index(pubKey); i >= 0 {
		return s.vals[i].Power
	}
	return 0
}

// Equal reports whether s and o hold the same validators.
func (s Set) Equal(o Set) bool {
	return s.total == o.total && slices.EqualFunc(s.vals, o.vals, func(a, b Validator) bool {
		return a.Name == b.Name && a.Power == b.Power && bytes.Equal(a.PubKey, b.PubKey) && bytes.Equal(a.ReportKey, b.ReportKey)
	})
}

// String lists the validators as name:power, in canonical order.
func (s Set) String() string {
	var b bytes.Buffer
	for i, v := range s.vals {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s:%d", v.Name, v.Power)
	}
	return b.String()
}
