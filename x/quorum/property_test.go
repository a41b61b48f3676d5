package quorum

import (
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

// naiveStatus is the quorum rule in arbitrary-precision integers.
func naiveStatus(reported, total int64, atDeadline bool) Status {
	r3 := new(big.Int).Mul(big.NewInt(reported), big.NewInt(3))
	switch {
	case r3.Cmp(new(big.Int).Mul(big.NewInt(total), big.NewInt(2))) > 0:
		return StatusFinal
	case !atDeadline:
		return StatusPending
	case r3.Cmp(big.NewInt(total)) > 0:
		return StatusFinal
	}
	return StatusExpired
}

func TestPropertyQuorumMatchesBigInt(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for round := 0; round < 20000; round++ {
		total := 1 + r.Int64N(math.MaxInt64)
		if round%2 == 0 {
			total = 1 + r.Int64N(30) // small totals: every boundary is hit
		}
		reported := r.Int64N(total)
		if r.IntN(10) == 0 {
			reported = total
		}
		if round%3 == 0 {
			// Land on or next to the 1/3 and 2/3 boundaries.
			reported = min(total, max(0, total/3*(1+r.Int64N(2))+r.Int64N(3)-1))
		}
		deadline := r.IntN(2) == 0
		got, want := quorumStatus(reported, total, deadline), naiveStatus(reported, total, deadline)
		if got != want {
			t.Fatalf("reported %d of %d, deadline %v: %v, naive %v", reported, total, deadline, got, want)
		}
	}
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
		want, err := Aggregate(votes, total, deadline)
		if err != nil {
			t.Fatal(err)
		}
		r.Shuffle(n, func(i, j int) { votes[i], votes[j] = votes[j], votes[i] })
		got, err := Aggregate(votes, total, deadline)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != want.Status || !slices.EqualFunc(got.Values, want.Values, decimal.Decimal.Equal) {
			t.Fatalf("round %d: shuffled votes changed the outcome: %+v vs %+v", round, got, want)
		}
	}
}
