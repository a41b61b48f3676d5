package valset

import (
	"bytes"
	"fmt"
	"slices"
)

// Miners answers whether a key is a registered miner's transaction key. The
// app fills it; a nil Miners knows no miner. A validator's report key must
// never be a miner's: a validator would report on its own submissions
// (docs/codes.md, code 42, is the same rule from the miner's side).
type Miners interface {
	IsMiner(key []byte) bool
}

// Update is one entry of FinalizeBlock's validator_updates: an ed25519
// consensus key and its new power, 0 to remove it.
type Update struct {
	PubKey []byte
	Power  int64
}

// Apply applies changes to set in order and returns the new set and the
// validator updates that take set to it. It works on a copy (etcd raft's
// confchange: copy, apply, check invariants, return): set is never changed,
// and on error the results are zero. Each change is checked against the set
// as the changes before it left it, so every prefix of changes yields a
// valid set: Step may end a block after any of them.
func Apply(set Set, changes []Change, miners Miners) (Set, []Update, error) {
	w := set.copy()
	for i, c := range changes {
		if err := w.apply(indexed("changes", i), c, miners); err != nil {
			return Set{}, nil, err
		}
	}
	w.mustHold()
	return w, Diff(set, w), nil
}

// Diff is the validator updates that take before to after, one per consensus key
// whose power differs (0 for a removed key), ascending by key. A report key
// rotation changes no power and gives no update: report keys are the app's.
// There is never a duplicate key, which CometBFT would refuse fatally.
func Diff(before, after Set) []Update {
	var out []Update
	b, a := before.vals, after.vals
	i, j := 0, 0
	for i < len(b) || j < len(a) {
		switch c := cmpAt(b, i, a, j); {
		case c < 0:
			out = append(out, Update{PubKey: bytes.Clone(b[i].PubKey), Power: 0})
			i++
		case c > 0:
			out = append(out, Update{PubKey: bytes.Clone(a[j].PubKey), Power: a[j].Power})
			j++
		default:
			if b[i].Power != a[j].Power {
				out = append(out, Update{PubKey: bytes.Clone(a[j].PubKey), Power: a[j].Power})
			}
			i, j = i+1, j+1
		}
	}
	return out
}

// cmpAt compares a[i] and b[j] by key; a list that is exhausted sorts last.
func cmpAt(a []Validator, i int, b []Validator, j int) int {
	switch {
	case i == len(a):
		return 1
	case j == len(b):
		return -1
	}
	return bytes.Compare(a[i].PubKey, b[j].PubKey)
}

// copy is a working copy of s: its own slice, the keys shared (nothing
// writes into a key's bytes).
func (s Set) copy() Set { return Set{vals: slices.Clone(s.vals), total: s.total} }

// apply applies one change to the working copy s, or returns why not and
// leaves s as it was.
func (s *Set) apply(field string, c Change, miners Miners) error {
	if err := c.check(field); err != nil {
		return err
	}
	if c.Kind == KindAdd {
		return s.add(field+".validator", c.Validator, miners)
	}
	i := s.Resolve(c.Target)
	if i < 0 {
		return inputErr(ErrUnknownValidator, field+".target", c.Target, "no validator of the set")
	}
	switch c.Kind {
	case KindSetPower:
		return s.setPower(field+".power", i, c.Power)
	case KindRemove:
		return s.remove(field+".target", i)
	default: // KindRotateReportKey: check accepted no other kind
		return s.rotate(field+".report_key", i, c.ReportKey, miners)
	}
}

func (s *Set) add(field string, v Validator, miners Miners) error {
	if j := s.IndexOfName(v.Name); j >= 0 {
		return inputErr(ErrDuplicateName, field+".name", fmt.Sprintf("%q", v.Name), "already a validator's name")
	}
	if j := s.Index(v.PubKey); j >= 0 {
		return inputErr(ErrDuplicateKey, field+".pub_key", hexOf(v.PubKey), fmt.Sprintf("already validator %q's consensus key", s.vals[j].Name))
	}
	if err := s.reportKeyFree(field+".report_key", v.ReportKey, miners); err != nil {
		return err
	}
	if err := s.checkTotal(field+".power", s.total+v.Power); err != nil { // v.Power ≤ Max: no overflow
		return err
	}
	at, _ := slices.BinarySearchFunc(s.vals, v.PubKey, func(w Validator, k []byte) int { return bytes.Compare(w.PubKey, k) })
	s.vals = slices.Insert(s.vals, at, v.clone())
	s.total += v.Power
	return nil
}

func (s *Set) setPower(field string, i int, power int64) error {
	if err := s.checkTotal(field, s.total-s.vals[i].Power+power); err != nil {
		return err
	}
	s.total += power - s.vals[i].Power
	s.vals[i].Power = power
	return nil
}

func (s *Set) remove(field string, i int) error {
	if len(s.vals) == 1 {
		return inputErr(ErrEmptySet, field, fmt.Sprintf("%q", s.vals[i].Name), "the last validator cannot be removed")
	}
	if err := s.checkTotal(field, s.total-s.vals[i].Power); err != nil {
		return err
	}
	s.total -= s.vals[i].Power
	s.vals = slices.Delete(s.vals, i, i+1)
	return nil
}

func (s *Set) rotate(field string, i int, key []byte, miners Miners) error {
	if err := s.reportKeyFree(field, key, miners); err != nil {
		return err
	}
	s.vals[i].ReportKey = bytes.Clone(key)
	return nil
}

// reportKeyFree: key is no validator's report key (the target's own
// included) and no miner's.
func (s *Set) reportKeyFree(field string, key []byte, miners Miners) error {
	if j := s.IndexOfReportKey(key); j >= 0 {
		return inputErr(ErrDuplicateKey, field, hexOf(key), fmt.Sprintf("already validator %q's report key", s.vals[j].Name))
	}
	if miners != nil && miners.IsMiner(key) {
		return inputErr(ErrMinerKey, field, hexOf(key), "a registered miner's key")
	}
	return nil
}

// checkTotal: a change that moves the total must leave it in
// [MinTotalPower, MaxTotalVotingPower]. 0 ≤ total ≤ Max and every power ≤
// Max, so newTotal never overflows.
func (s *Set) checkTotal(field string, newTotal int64) error {
	switch {
	case newTotal > MaxTotalVotingPower:
		return inputErr(ErrTotalPower, field, newTotal, fmt.Sprintf("the total power would exceed %d", MaxTotalVotingPower))
	case newTotal != s.total && newTotal < MinTotalPower:
		return inputErr(ErrTotalPower, field, newTotal, fmt.Sprintf("the total power would fall below %d (no later block could change it)", MinTotalPower))
	}
	return nil
}

// mustHold panics if s breaks an invariant of Set: apply checks every
// change before it is made, so a broken invariant is a bug of this package.
func (s Set) mustHold() {
	if err := s.invariants(); err != nil {
		panic("valset: internal invariant broken: " + err.Error())
	}
}

// invariants checks what every Set holds; the maps are only looked up.
func (s Set) invariants() error {
	if len(s.vals) == 0 {
		return fmt.Errorf("empty set")
	}
	names, reportKeys := make(map[string]bool, len(s.vals)), make(map[string]bool, len(s.vals))
	var total int64
	for i, v := range s.vals {
		switch {
		case v.check("v") != nil:
			return fmt.Errorf("validator %d: %v", i, v.check("v"))
		case i > 0 && bytes.Compare(s.vals[i-1].PubKey, v.PubKey) >= 0:
			return fmt.Errorf("validator %d out of order or duplicate key", i)
		case names[v.Name] || reportKeys[string(v.ReportKey)]:
			return fmt.Errorf("validator %d: duplicate name or report key", i)
		case v.Power > MaxTotalVotingPower-total:
			return fmt.Errorf("total power above %d", MaxTotalVotingPower)
		}
		names[v.Name], reportKeys[string(v.ReportKey)] = true, true
		total += v.Power
	}
	if total != s.total {
		return fmt.Errorf("total %d, cached %d", total, s.total)
	}
	return nil
}
