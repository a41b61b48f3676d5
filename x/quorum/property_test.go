package quorum

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/shopspring/decimal"
)

// The properties below compare the package against deliberately naive
// recomputations. The random sequences are seeded, so a failure is reproducible.

func randScore(r *rand.Rand) decimal.Decimal {
	return decimal.New(r.Int64N(1_000_001), -6) // 0.000000 … 1.000000
}

func TestPropertyWeightedMedianMatchesExpansion(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for round := 0; round < 2000; round++ {
		n := 1 + r.IntN(12)
		values := make([]decimal.Decimal, n)
		powers := make([]int64, n)
		var expanded []decimal.Decimal
		for i := range values {
			values[i] = decimal.NewFromInt(r.Int64N(7) - 3) // small range: many ties
			powers[i] = 1 + r.Int64N(5)
			for k := int64(0); k < powers[i]; k++ {
				expanded = append(expanded, values[i])
			}
		}
		sort.Slice(expanded, func(i, j int) bool { return expanded[i].Cmp(expanded[j]) < 0 })
		want := expanded[(len(expanded)+1)/2-1] // the lower median of the expanded multiset
		got, err := WeightedMedian(values, powers)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(want) {
			t.Fatalf("values %v powers %v: got %s, want %s", values, powers, got, want)
		}
	}
}

// naiveStatus is the quorum rule in arbitrary-precision rationals.
func naiveStatus(reported, total int64, atDeadline bool, q decimal.Decimal) Status {
	share := big.NewRat(reported, total)
	switch {
	case share.Cmp(big.NewRat(2, 3)) > 0:
		return StatusFinal
	case !atDeadline:
		return StatusPending
	case share.Cmp(q.Rat()) > 0:
		return StatusFinal
	}
	return StatusExpired
}

// randRule is the default rule, a bound of the allowed range, or a random
// deadline quorum of up to 18 places inside it.
func randRule(t *testing.T, r *rand.Rand) Rule {
	var q decimal.Decimal
	switch r.IntN(4) {
	case 0:
		return DefaultRule()
	case 1:
		q = decimal.RequireFromString("0.333333333333333334")
	case 2:
		q = decimal.RequireFromString("0.666666666666666666")
	default:
		q = decimal.New(int64(minDeadlineScaled+r.Uint64N(maxDeadlineScaled-minDeadlineScaled+1)), -Places)
	}
	rule, err := NewRule(q)
	if err != nil {
		t.Fatal(err)
	}
	return rule
}

func TestPropertyQuorumMatchesBigRat(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for round := 0; round < 20000; round++ {
		rule := randRule(t, r)
		total := 1 + r.Int64N(math.MaxInt64)
		if round%2 == 0 {
			total = 1 + r.Int64N(30) // small totals: every boundary is hit
		}
		reported := r.Int64N(total)
		if r.IntN(10) == 0 {
			reported = total
		}
		switch round % 3 {
		case 0: // on or next to the 2/3 boundary
			reported = min(total, max(0, total/3*2+r.Int64N(3)-1))
		case 1: // on or next to the deadline quorum: ⌊q × total⌋ − 1 … + 1
			qt := new(big.Int).Mul(big.NewInt(total), new(big.Int).SetUint64(rule.scaled))
			qt.Quo(qt, new(big.Int).SetUint64(scale))
			reported = min(total, max(0, qt.Int64()+r.Int64N(3)-1))
		}
		deadline := r.IntN(2) == 0
		got, want := rule.Status(reported, total, deadline), naiveStatus(reported, total, deadline, rule.DeadlineQuorum())
		if got != want {
			t.Fatalf("q %s, reported %d of %d, deadline %v: %v, naive %v", rule.DeadlineQuorum(), reported, total, deadline, got, want)
		}
	}
}

// TestPropertyHonestRange checks, over random power distributions and
// adversarial minorities, the bound of docs/scoring.md §6.5. With H the
// honest reported power, A the adversary's reported power, R = H + A, and
// the honest values in [lo, hi]:
//
//  1. if 2H > R, every field's median of a final outcome is in [lo, hi];
//  2. if 2H = R, the median is still ≤ hi (ties resolve downward), and an
//     adversary voting below lo does pull it below lo (the bound is tight);
//  3. at a deadline settlement, 2H > R whenever the adversary's whole power
//     A_all satisfies 2·A_all ≤ q·T (q the deadline quorum, T the total);
//     and at the early quorum whenever 3·A_all ≤ T;
//  4. with q ≥ 1/2, 2H > R whenever H > q·T, whatever the adversary holds.
func TestPropertyHonestRange(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for round := 0; round < 20000; round++ {
		rule := randRule(t, r)
		n := 2 + r.IntN(10)
		votes, honestReported, advReported, advAll, total := adversarialVotes(r, n)
		lo, hi := honestRange(votes, honestReported)
		deadline := r.IntN(2) == 0
		out, err := Aggregate(votes, total, deadline, rule)
		if err != nil {
			t.Fatal(err)
		}
		if out.Status != StatusFinal {
			continue
		}
		h, a := honestReported.power, advReported
		m := out.Values[0]
		where := func() string {
			return fmt.Sprintf("round %d: q %s, H %d, A %d of %d (adversary holds %d), deadline %v, honest [%s, %s], median %s",
				round, rule.DeadlineQuorum(), h, a, total, advAll, deadline, lo, hi, m)
		}
		switch {
		case h > a && (m.Cmp(lo) < 0 || m.Cmp(hi) > 0):
			t.Fatalf("1: honest majority of the reporters, median outside the honest range: %s", where())
		case h == a && m.Cmp(hi) > 0:
			t.Fatalf("2: half the reporters honest, median above the honest range: %s", where())
		case h == a && h > 0 && adversaryAllBelow(votes) && m.Cmp(lo) >= 0:
			t.Fatalf("2: half the reporters honest and the adversary below them, yet the median is not below: %s", where())
		}
		smallForDeadline := !mulGreater(advAll, 2*scale, total, rule.scaled) // 2·A_all ≤ q·T
		smallForQuorum := !mulGreater(advAll, 3, total, 1)                   // 3·A_all ≤ T
		if smallForDeadline || (smallForQuorum && mulGreater(out.ReportedPower, 3, total, 2)) {
			if h <= a {
				t.Fatalf("3: a small adversary is half the reporters of a settlement: %s", where())
			}
		}
		if rule.scaled*2 >= scale && mulGreater(h, scale, total, rule.scaled) && h <= a {
			t.Fatalf("4: honest power above q·T with q ≥ 1/2 and no honest majority of the reporters: %s", where())
		}
	}
}

// honestPower is what the honest reporters hold and which votes are theirs.
type honestPower struct {
	power  int64
	voters map[string]bool
}

// adversarialVotes draws n validators, some adversarial; each reports or
// not. Honest values are near 0.8575; the adversary votes all below, all
// above, or split, to pull the median. The total may exceed the validators'
// sum (power of validators that never report anything).
func adversarialVotes(r *rand.Rand, n int) (votes []Vote, honest honestPower, advReported, advAll, total int64) {
	honest.voters = map[string]bool{}
	direction := r.IntN(3)
	for i := 0; i < n; i++ {
		p := 1 + r.Int64N(100)
		if r.IntN(4) == 0 {
			p = 1 + r.Int64N(1000) // heavy validators
		}
		total += p
		adversary := r.IntN(3) == 0
		if adversary {
			advAll += p
		}
		if r.IntN(5) == 0 {
			continue // did not report
		}
		addr := fmt.Sprintf("v%02d", i)
		var val decimal.Decimal
		switch {
		case !adversary:
			val = decimal.New(8500+r.Int64N(150), -4) // 0.8500 … 0.8649
			honest.power += p
			honest.voters[addr] = true
		case direction == 0 || (direction == 2 && r.IntN(2) == 0):
			val = decimal.New(r.Int64N(900), -4) // 0 … 0.0899
			advReported += p
		default:
			val = decimal.New(9000+r.Int64N(1000), -4) // 0.9 … 0.9999
			advReported += p
		}
		votes = append(votes, Vote{Validator: []byte(addr), Power: p, Values: []decimal.Decimal{val}})
	}
	if r.IntN(3) == 0 {
		total += r.Int64N(total) // silent power outside these validators
	}
	// An equal split is the boundary of property 2: make it common.
	if r.IntN(4) == 0 && honest.power > 0 && advReported == 0 && len(votes) < 20 {
		votes = append(votes, Vote{Validator: []byte("zz"), Power: honest.power, Values: []decimal.Decimal{decimal.New(9, -2)}})
		advReported, advAll, total = honest.power, advAll+honest.power, total+honest.power
	}
	return votes, honest, advReported, advAll, total
}

// honestRange is [min, max] of the honest values (0, 0 with none).
func honestRange(votes []Vote, h honestPower) (lo, hi decimal.Decimal) {
	first := true
	for _, v := range votes {
		if !h.voters[string(v.Validator)] {
			continue
		}
		if first || v.Values[0].Cmp(lo) < 0 {
			lo = v.Values[0]
		}
		if first || v.Values[0].Cmp(hi) > 0 {
			hi = v.Values[0]
		}
		first = false
	}
	return lo, hi
}

// adversaryAllBelow reports whether no vote is 0.9 or more: every adversarial
// vote is then below every honest one.
func adversaryAllBelow(votes []Vote) bool {
	for _, v := range votes {
		if v.Values[0].Cmp(decimal.New(9, -1)) >= 0 {
			return false
		}
	}
	return true
}

func TestPropertyAggregateIgnoresArrivalOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for round := 0; round < 500; round++ {
		n := 1 + r.IntN(10)
		votes := make([]Vote, n)
		var total int64
		for i := range votes {
			votes[i] = Vote{Validator: []byte{byte(i)}, Power: 1 + r.Int64N(100),
				Values: []decimal.Decimal{randScore(r), randScore(r)}}
			total += votes[i].Power
		}
		total += r.Int64N(total)
		deadline := r.IntN(2) == 0
		want, err := Aggregate(votes, total, deadline, DefaultRule())
		if err != nil {
			t.Fatal(err)
		}
		r.Shuffle(n, func(i, j int) { votes[i], votes[j] = votes[j], votes[i] })
		got, err := Aggregate(votes, total, deadline, DefaultRule())
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != want.Status || !slices.EqualFunc(got.Values, want.Values, decimal.Decimal.Equal) {
			t.Fatalf("round %d: shuffled votes changed the outcome: %+v vs %+v", round, got, want)
		}
	}
}
