package valset

import (
	"cmp"
	"fmt"
	"slices"
)

// Entry is a set and the first height at which it is in force.
type Entry struct {
	From int64
	Set  Set
}

// History is the validator sets by height, so that a quorum computed at a
// height uses the powers and report keys in force at that height. The app
// records the genesis set from the initial height, and the set a block at
// height H returns updates for from H + UpdateDelay (CometBFT's rule). A
// History is a value: Record and Prune return a new one.
type History struct {
	entries []Entry // From strictly ascending
}

// Record returns h with s in force from height from on; from must be after
// the last entry's (a block's set always is).
func (h History) Record(from int64, s Set) (History, error) {
	if n := len(h.entries); n > 0 && from <= h.entries[n-1].From {
		return History{}, inputErr(ErrInvalidInput, "from", from, fmt.Sprintf("not after the last entry's height %d", h.entries[n-1].From))
	}
	if s.Len() == 0 {
		return History{}, inputErr(ErrEmptySet, "set", "[]", "a history holds no empty set")
	}
	return History{entries: append(slices.Clip(h.entries), Entry{From: from, Set: s})}, nil
}

// At returns the set in force at height: the last entry whose From ≤
// height. ok is false before the first entry.
func (h History) At(height int64) (s Set, ok bool) {
	i, found := slices.BinarySearchFunc(h.entries, height, func(e Entry, t int64) int { return cmp.Compare(e.From, t) })
	if !found {
		i-- // the entry before the insertion point
	}
	if i < 0 {
		return Set{}, false
	}
	return h.entries[i].Set, true
}

// Latest is the last entry: the set the next updates apply to.
func (h History) Latest() (Entry, bool) {
	if len(h.entries) == 0 {
		return Entry{}, false
	}
	return h.entries[len(h.entries)-1], true
}

// Prune returns h without the entries no height ≥ keepFrom needs: every
// entry from the one in force at keepFrom on is kept, so At(x) is unchanged
// for every x ≥ keepFrom.
func (h History) Prune(keepFrom int64) History {
	i, found := slices.BinarySearchFunc(h.entries, keepFrom, func(e Entry, t int64) int { return cmp.Compare(e.From, t) })
	if !found && i > 0 {
		i--
	}
	return History{entries: slices.Clone(h.entries[i:])}
}

// Entries returns the entries, ascending by From.
func (h History) Entries() []Entry { return slices.Clone(h.entries) }

// Len is the number of entries.
func (h History) Len() int { return len(h.entries) }
