package membership

import (
	"bytes"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// extremes are the values the property tests mix into random inputs.
var extremes = []uint64{0, 1, 2, 3, math.MaxUint32, math.MaxUint32 + 1, math.MaxInt64, math.MaxUint64 - 1, math.MaxUint64}

func pick(r *rand.Rand) uint64 {
	switch r.IntN(4) {
	case 0:
		return extremes[r.IntN(len(extremes))]
	case 1:
		return r.Uint64N(1 << 12)
	case 2:
		return r.Uint64() >> r.UintN(64)
	default:
		return r.Uint64()
	}
}

// nextDifficultyBig is the rule of NextDifficulty, written the naive way
// with big integers: no overflow can happen, so it is the reference.
func nextDifficultyBig(current, regs uint64, p Params) uint64 {
	target := new(big.Int).SetUint64(uint64(max(p.TargetRegistrations, 1)))
	factor := new(big.Int).SetUint64(max(p.MaxAdjustFactor, 1))
	cur := new(big.Int).SetUint64(current)
	num := new(big.Int).Mul(cur, new(big.Int).Add(new(big.Int).SetUint64(regs), target))
	next := num.Div(num, new(big.Int).Mul(big.NewInt(2), target))
	lower := new(big.Int).Div(cur, factor)
	upper := new(big.Int).Mul(cur, factor)
	if next.Cmp(lower) < 0 {
		next = lower
	}
	if next.Cmp(upper) > 0 {
		next = upper
	}
	if lo := new(big.Int).SetUint64(p.MinDifficulty); next.Cmp(lo) < 0 {
		next = lo
	}
	if hi := new(big.Int).SetUint64(p.MaxDifficulty); next.Cmp(hi) > 0 {
		next = hi
	}
	return next.Uint64()
}

// TestPropertyNextDifficulty: NextDifficulty equals the big-integer rule for
// random and extreme inputs (whatever the params, valid or not), stays in
// [min, max] when min ≤ max, moves by at most the factor before the clamps,
// and is monotone in the registrations.
func TestPropertyNextDifficulty(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 1))
	for round := 0; round < 100_000; round++ {
		p := Params{
			MinDifficulty:       pick(r),
			MaxDifficulty:       pick(r),
			TargetRegistrations: uint32(pick(r)),
			MaxAdjustFactor:     pick(r),
		}
		if r.IntN(2) == 0 { // mostly sane bounds, some inverted ones
			p.MinDifficulty, p.MaxDifficulty = min(p.MinDifficulty, p.MaxDifficulty), max(p.MinDifficulty, p.MaxDifficulty)
		}
		current, regs := pick(r), pick(r)
		got := NextDifficulty(current, regs, p)
		if want := nextDifficultyBig(current, regs, p); got != want {
			t.Fatalf("round %d: NextDifficulty(%d, %d, %+v) = %d, big = %d", round, current, regs, p, got, want)
		}
		if p.MinDifficulty <= p.MaxDifficulty && (got < p.MinDifficulty || got > p.MaxDifficulty) {
			t.Fatalf("round %d: %d outside [%d, %d]", round, got, p.MinDifficulty, p.MaxDifficulty)
		}
		if regs < math.MaxUint64 && NextDifficulty(current, regs+1, p) < got {
			t.Fatalf("round %d: one more registration lowered the difficulty", round)
		}
		wide := Params{MaxDifficulty: math.MaxUint64, TargetRegistrations: p.TargetRegistrations, MaxAdjustFactor: p.MaxAdjustFactor}
		f := max(p.MaxAdjustFactor, 1)
		if n := NextDifficulty(current, regs, wide); n < current/f || (current <= math.MaxUint64/f && n > current*f) {
			t.Fatalf("round %d: %d → %d moved by more than the factor %d", round, current, n, f)
		}
	}
}

func randCandidate(r *rand.Rand) Candidate {
	// Small ranges make ties of weight and of height frequent; extremes test
	// the sign handling of heights.
	c := Candidate{UID: uint32(r.IntN(64)), Weight: uint64(r.IntN(4)), RegisteredHeight: int64(r.IntN(8))}
	switch r.IntN(10) {
	case 0:
		c.Weight = r.Uint64()
	case 1:
		c.RegisteredHeight = int64(r.Uint64())
	case 2:
		c.UID = r.Uint32()
	}
	return c
}

// TestPropertyPruneKeyOrder: the byte order of PruneKeys is PruneOrder, and
// DecodePruneKey inverts PruneKey.
func TestPropertyPruneKeyOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for round := 0; round < 200_000; round++ {
		a, b := randCandidate(r), randCandidate(r)
		cmp := bytes.Compare(a.Key(), b.Key())
		if (cmp < 0) != PruneOrder(a, b) || (cmp > 0) != PruneOrder(b, a) || (cmp == 0) != (a == b) {
			t.Fatalf("round %d: %+v vs %+v: key compare %d, PruneOrder %v/%v", round, a, b, cmp, PruneOrder(a, b), PruneOrder(b, a))
		}
		if d, err := DecodePruneKey(a.Key()); err != nil || d != a {
			t.Fatalf("round %d: %+v decodes to %+v, %v", round, a, d, err)
		}
	}
}

// chooseNaive is the pruning rule read straight from docs/membership.md: keep the
// non-immune uids; if no more than MinNonImmune of them, none; else sort
// them by (weight, registration height, uid) and take the first.
func chooseNaive(cands []Candidate, height int64, p Params) (uint32, bool) {
	var free []Candidate
	for _, c := range cands {
		if !(height-c.RegisteredHeight < p.ImmunityBlocks) { // heights here are small: no overflow
			free = append(free, c)
		}
	}
	if len(free) <= int(p.MinNonImmune) {
		return 0, false
	}
	sort.Slice(free, func(i, j int) bool {
		a, b := free[i], free[j]
		return a.Weight < b.Weight ||
			a.Weight == b.Weight && (a.RegisteredHeight < b.RegisteredHeight ||
				a.RegisteredHeight == b.RegisteredHeight && a.UID < b.UID)
	})
	return free[0].UID, true
}

// TestPropertyChoose: Choose equals the naive scan on random miner sets
// (distinct uids, in any order), ChooseOrdered over the set sorted by
// PruneKey equals Choose, and a candidate is immune iff its registration
// height is at least ImmuneFrom.
func TestPropertyChoose(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 19))
	for round := 0; round < 20_000; round++ {
		p := Params{ImmunityBlocks: int64(1 + r.IntN(50)), MinNonImmune: uint32(r.IntN(6))}
		height := int64(r.IntN(200))
		uids := r.Perm(256)[:r.IntN(40)]
		cands := make([]Candidate, len(uids))
		var nonImmune uint64
		for i, u := range uids {
			cands[i] = Candidate{UID: uint32(u), Weight: uint64(r.IntN(5)), RegisteredHeight: int64(r.IntN(200))}
			if Immune(cands[i], height, p) != (cands[i].RegisteredHeight >= ImmuneFrom(height, p)) {
				t.Fatalf("round %d: Immune and ImmuneFrom disagree on %+v at %d", round, cands[i], height)
			}
			if !Immune(cands[i], height, p) {
				nonImmune++
			}
		}
		wantUID, wantOK := chooseNaive(cands, height, p)
		uid, ok := Choose(cands, height, p)
		if uid != wantUID || ok != wantOK {
			t.Fatalf("round %d: Choose = %d, %v; naive = %d, %v", round, uid, ok, wantUID, wantOK)
		}
		slices.SortFunc(cands, func(a, b Candidate) int { return bytes.Compare(a.Key(), b.Key()) })
		if uid, ok = ChooseOrdered(slices.Values(cands), nonImmune, height, p); uid != wantUID || ok != wantOK {
			t.Fatalf("round %d: ChooseOrdered = %d, %v; naive = %d, %v", round, uid, ok, wantUID, wantOK)
		}
	}
}

// TestPropertyMeets: Meets equals its big-integer definition on random
// seals (many with leading zero bytes, as solutions have) and difficulties.
func TestPropertyMeets(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 29))
	for round := 0; round < 100_000; round++ {
		var s [SealSize]byte
		for i := r.IntN(SealSize); i < SealSize; i++ {
			s[i] = byte(r.UintN(256))
		}
		d := pick(r)
		if Meets(s, d) != meetsBig(s, d) {
			t.Fatalf("round %d: Meets(%x, %d) disagrees with big", round, s, d)
		}
	}
}
