package membership

import (
	"iter"
	"math"
)

// Candidate is a registered miner as the pruning rule sees it.
type Candidate struct {
	UID uint32
	// Weight is the uid's u16 weight in the last epoch (0 if it had none).
	Weight uint64
	// RegisteredHeight is the height of the block that registered the uid
	// to its current owner.
	RegisteredHeight int64
}

// Immune reports whether c cannot be replaced at height: it was registered
// fewer than ImmunityBlocks blocks before (a registration not yet in the
// past is immune).
func Immune(c Candidate, height int64, p Params) bool {
	if p.ImmunityBlocks < 1 {
		return false
	}
	if c.RegisteredHeight >= height {
		return true
	}
	return uint64(height)-uint64(c.RegisteredHeight) < uint64(p.ImmunityBlocks)
}

// ImmuneFrom is the lowest registration height still immune at height: a
// candidate is immune iff RegisteredHeight ≥ ImmuneFrom(height, p), which an
// app with an index by registration height can count without a scan.
func ImmuneFrom(height int64, p Params) int64 {
	if p.ImmunityBlocks < 1 {
		return math.MaxInt64 // nobody is immune (a registration at MaxInt64 aside)
	}
	if height < math.MinInt64+p.ImmunityBlocks {
		return math.MinInt64
	}
	return height - p.ImmunityBlocks + 1
}

// ImmuneThrough is the last height at which a uid registered at
// registeredHeight is immune (saturating at the largest height); the miner
// query shows it.
func ImmuneThrough(registeredHeight int64, p Params) int64 {
	if p.ImmunityBlocks < 1 {
		return max(registeredHeight, math.MinInt64+1) - 1
	}
	if registeredHeight > math.MaxInt64-p.ImmunityBlocks+1 {
		return math.MaxInt64
	}
	return registeredHeight + p.ImmunityBlocks - 1
}

// PruneOrder reports whether a is replaced before b: the lower weight, then
// the earlier registration, then the lower uid. It is a strict total order
// over candidates with distinct uids.
func PruneOrder(a, b Candidate) bool {
	if a.Weight != b.Weight {
		return a.Weight < b.Weight
	}
	if a.RegisteredHeight != b.RegisteredHeight {
		return a.RegisteredHeight < b.RegisteredHeight
	}
	return a.UID < b.UID
}

// Replaceable reports whether, with nonImmune uids not immune, a
// registration may replace one: more than MinNonImmune, so that
// MinNonImmune remain after it (and never when every uid is immune).
func Replaceable(nonImmune uint64, p Params) bool {
	return nonImmune > uint64(p.MinNonImmune)
}

// Choose is the uid that a registration at height replaces when every uid
// is taken: the first non-immune candidate in PruneOrder, or ok = false
// when the non-immune candidates are not Replaceable. Candidates come in
// any order; the burn uid is never one.
func Choose(candidates []Candidate, height int64, p Params) (uid uint32, ok bool) {
	var best Candidate
	var nonImmune uint64
	for _, c := range candidates {
		if Immune(c, height, p) {
			continue
		}
		if nonImmune == 0 || PruneOrder(c, best) {
			best = c
		}
		nonImmune++
	}
	if !Replaceable(nonImmune, p) {
		return 0, false
	}
	return best.UID, true
}

// ChooseOrdered is Choose for an app that keeps its miners in an index
// ordered by PruneKey and counts the non-immune ones (total minus those
// registered at or after ImmuneFrom): ordered yields candidates in
// PruneOrder and is read only up to the first non-immune one, so the work
// is bounded by the number of immune uids, not by the number of miners. It
// equals Choose over the same candidates when nonImmune is their count of
// non-immune ones.
func ChooseOrdered(ordered iter.Seq[Candidate], nonImmune uint64, height int64, p Params) (uid uint32, ok bool) {
	if !Replaceable(nonImmune, p) {
		return 0, false
	}
	for c := range ordered {
		if !Immune(c, height, p) {
			return c.UID, true
		}
	}
	return 0, false
}
