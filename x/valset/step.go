package valset

import "fmt"

// Status says what Step did with one change of the queue.
type Status uint8

const (
	// Applied: the change was applied whole.
	Applied Status = 1
	// Partial: part of the change was applied (it moved more power than the
	// block had left); its remainder heads the queue.
	Partial Status = 2
	// Dropped: the change no longer applies to the set (Err says why) and
	// left the queue.
	Dropped Status = 3
)

func (s Status) String() string {
	switch s {
	case Applied:
		return "applied"
	case Partial:
		return "partial"
	case Dropped:
		return "dropped"
	}
	return fmt.Sprintf("status(%d)", uint8(s))
}

// Outcome is what happened to pending[Index]: Change is what was applied
// (for Partial, the part), Err why it was dropped.
type Outcome struct {
	Index  int
	Status Status
	Change Change
	Err    error
}

// StepResult is one block's progress through the queue.
type StepResult struct {
	// Set is the set after the block: the one the Updates make CometBFT use
	// from height H + UpdateDelay.
	Set Set
	// Updates take the set before the block to Set (Diff).
	Updates []Update
	// Outcomes are the changes examined, in queue order; those after the
	// last were not reached.
	Outcomes []Outcome
	// Remaining is the queue for the next block.
	Remaining []Change
	// Budget is floor(total/3) of the set before the block; Moved the
	// power the block's changes moved, Σ|Δ| ≤ Budget.
	Budget, Moved int64
}

// Step applies the queue of approved changes for one block: in order, each
// checked against the set as it stands (a change that no longer applies is
// dropped), while the power moved — the sum over changes of |Δ| of the
// validator each touches: an add's power, a removal's power, a power
// change's difference, 0 for a report key — stays within floor(T/3), T the
// total power before the block. A change that would pass the budget is
// split: the part that fits is applied (an add at the power that fits, a
// power change or a removal stepped towards its target by what fits) and
// the remainder (a set_power to the target, or the removal) heads the next
// block's queue; with no budget left it waits whole. Every intermediate set
// is valid, the input set and queue are not changed, and the block's Diff
// moves at most floor(T/3) (doc.go argues why).
func Step(set Set, pending []Change, miners Miners) StepResult {
	res := StepResult{Budget: set.total / 3}
	w := set.copy()
	left := res.Budget
	for i, c := range pending {
		trial := w.copy()
		if err := trial.apply(indexed("pending", i), c, miners); err != nil {
			res.Outcomes = append(res.Outcomes, Outcome{Index: i, Status: Dropped, Change: c, Err: err})
			continue
		}
		d := moved(w, trial)
		if d <= left {
			w, left = trial, left-d
			res.Outcomes = append(res.Outcomes, Outcome{Index: i, Status: Applied, Change: c})
			continue
		}
		res.Remaining = append([]Change(nil), pending[i:]...)
		if left > 0 {
			part, rest := split(w, c, left)
			if err := w.apply(indexed("pending", i), part, miners); err != nil {
				panic("valset: the part of a valid change does not apply: " + err.Error())
			}
			left = 0
			res.Outcomes = append(res.Outcomes, Outcome{Index: i, Status: Partial, Change: part})
			res.Remaining[0] = rest
		}
		break
	}
	w.mustHold()
	res.Set, res.Updates, res.Moved = w, Diff(set, w), res.Budget-left
	return res
}

// moved is Σ|Δpower| between two sets, over every consensus key of either.
func moved(before, after Set) int64 {
	var sum int64
	for _, u := range Diff(before, after) {
		d := u.Power - before.Power(u.PubKey)
		if d < 0 {
			d = -d
		}
		sum += d
	}
	return sum
}

// split cuts c, which applies to w and moves more than budget > 0, into a
// part that moves exactly budget and the rest, which takes the validator to
// c's target from there. c is never a report key rotation (it moves
// nothing).
func split(w Set, c Change, budget int64) (part, rest Change) {
	if c.Kind == KindAdd {
		v := c.Validator
		ref := ByKey(v.PubKey)
		v.Power = budget
		return AddValidator(v), SetPower(ref, c.Validator.Power)
	}
	cur := w.vals[w.Resolve(c.Target)]
	ref := ByKey(cur.PubKey)
	if c.Kind == KindRemove {
		return SetPower(ref, cur.Power-budget), Remove(ref)
	}
	if c.Power > cur.Power {
		return SetPower(ref, cur.Power+budget), SetPower(ref, c.Power)
	}
	return SetPower(ref, cur.Power-budget), SetPower(ref, c.Power)
}

// Project is the set the queue leads to once every change in it has been
// applied, with those that do not apply dropped, as Step does over as many
// blocks as it takes when nothing else changes the set meanwhile. Validate a
// new proposal against it: its changes run after the queue.
func Project(set Set, pending []Change, miners Miners) Set {
	w := set.copy()
	for i, c := range pending {
		trial := w.copy()
		if trial.apply(indexed("pending", i), c, miners) == nil {
			w = trial
		}
	}
	return w
}
