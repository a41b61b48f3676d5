package mirror

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func dg(b byte) (d [32]byte) {
	d[0] = b
	return d
}

func vt(addr string, power int64, block uint64, digest byte) Vote {
	return Vote{Validator: []byte(addr), Power: power, ParentBlock: block, Digest: dg(digest)}
}

func TestAggregateQuorum(t *testing.T) {
	// Total power 12: 2/3 is 8, strictly more is needed.
	tests := []struct {
		name   string
		votes  []Vote
		final  bool
		block  uint64
		digest byte
		power  int64
	}{
		{"no votes", nil, false, 0, 0, 0},
		{"exactly 2/3 on one digest is pending", []Vote{vt("a", 4, 360, 1), vt("b", 4, 360, 1)}, false, 360, 1, 8},
		{"just over 2/3 is final", []Vote{vt("a", 4, 360, 1), vt("b", 5, 360, 1)}, true, 360, 1, 9},
		{"over 2/3 reported, split digests, pending", []Vote{vt("a", 5, 360, 1), vt("b", 4, 360, 2), vt("c", 3, 360, 1)}, false, 360, 1, 8}, // 5 + 3 on digest 1 is exactly 2/3
		{"split 6/6 is pending, lower digest leads", []Vote{vt("a", 6, 360, 2), vt("b", 6, 360, 1)}, false, 360, 1, 6},
		{"split across blocks is pending, higher block leads", []Vote{vt("a", 6, 360, 1), vt("b", 6, 720, 1)}, false, 720, 1, 6},
		{"more power leads", []Vote{vt("a", 7, 360, 1), vt("b", 5, 720, 1)}, false, 360, 1, 7},
		{"two blocks final, the higher wins", []Vote{vt("a", 4, 360, 1), vt("b", 5, 360, 1), vt("a", 4, 720, 3), vt("b", 5, 720, 3)}, true, 720, 3, 9},
		{"a final block beats a heavier pending one", []Vote{vt("a", 4, 360, 1), vt("b", 5, 360, 1), vt("c", 3, 720, 2)}, true, 360, 1, 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Aggregate(tt.votes, 12)
			if err != nil {
				t.Fatal(err)
			}
			if out.Final != tt.final || out.ParentBlock != tt.block || out.Digest != dg(tt.digest) || out.Power != tt.power || out.TotalPower != 12 {
				t.Fatalf("outcome = %+v, want final %v block %d digest %d power %d", out, tt.final, tt.block, tt.digest, tt.power)
			}
		})
	}
}

func TestAggregateLargePowers(t *testing.T) {
	// power × 3 overflows int64; x/quorum's comparison must not.
	total := int64(math.MaxInt64)
	out, err := Aggregate([]Vote{vt("a", total/3*2+2, 360, 1)}, total)
	if err != nil || !out.Final {
		t.Fatalf("got %+v, %v; want final", out, err)
	}
	out, err = Aggregate([]Vote{vt("a", total/3*2, 360, 1)}, total)
	if err != nil || out.Final {
		t.Fatalf("got %+v, %v; want pending", out, err)
	}
}

func TestAggregateErrors(t *testing.T) {
	tests := []struct {
		name  string
		votes []Vote
		total int64
		field string
	}{
		{"zero total", []Vote{vt("a", 1, 360, 1)}, 0, "total_power"},
		{"negative total", nil, -1, "total_power"},
		{"empty validator", []Vote{vt("", 1, 360, 1)}, 10, "validator"},
		{"zero power", []Vote{vt("a", 0, 360, 1)}, 10, "power"},
		{"negative power", []Vote{vt("a", -3, 360, 1)}, 10, "power"},
		{"twice at one block, same digest", []Vote{vt("a", 1, 360, 1), vt("a", 1, 360, 1)}, 10, "validator"},
		{"twice at one block, two digests", []Vote{vt("a", 1, 360, 1), vt("b", 1, 360, 1), vt("a", 1, 360, 2)}, 10, "validator"},
		{"one block above total", []Vote{vt("a", 6, 360, 1), vt("b", 5, 360, 2)}, 10, "power"},
		{"overflowing sum", []Vote{vt("a", math.MaxInt64, 360, 1), vt("b", math.MaxInt64, 360, 1)}, math.MaxInt64, "power"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Aggregate(tt.votes, tt.total)
			var ie *InputError
			if !errors.As(err, &ie) || ie.Field != tt.field || !errors.Is(err, ErrInvalidInput) {
				t.Fatalf("err = %v, want an InputError on %s", err, tt.field)
			}
		})
	}
	// The same validator at two blocks is two votes, not a duplicate.
	if _, err := Aggregate([]Vote{vt("a", 6, 360, 1), vt("a", 6, 720, 1)}, 10); err != nil {
		t.Fatalf("one validator at two blocks: %v", err)
	}
}

func TestCheckAttestation(t *testing.T) {
	p := DefaultParams() // cadence 360
	tests := []struct {
		block, lastFinal uint64
		want             error
	}{
		{720, 360, nil},
		{360 * 100, 360, nil},
		{360, 0, nil},
		{360, 360, ErrStaleAttestation},
		{0, 0, ErrStaleAttestation},
		{360, 720, ErrStaleAttestation},
		{721, 360, ErrInvalidInput},
		{359, 0, ErrInvalidInput},
	}
	if err := CheckAttestation(360, 0, Params{}); !errors.Is(err, ErrInvalidInput) {
		t.Errorf("zero params: %v, want ErrInvalidInput (not a division by zero)", err)
	}
	for _, tt := range tests {
		err := CheckAttestation(tt.block, tt.lastFinal, p)
		if (tt.want == nil) != (err == nil) || (tt.want != nil && !errors.Is(err, tt.want)) {
			t.Errorf("CheckAttestation(%d, %d) = %v, want %v", tt.block, tt.lastFinal, err, tt.want)
		}
	}
}

// naiveAggregate is the specification: for each (block, digest), sum the
// power; final groups are those with 3 × power > 2 × total (in big enough
// integers: powers here are small); the highest final block wins.
func naiveAggregate(votes []Vote, total int64) (final bool, block uint64, digest [32]byte, power int64) {
	type key struct {
		b uint64
		d [32]byte
	}
	sums := map[key]int64{}
	for _, v := range votes {
		sums[key{v.ParentBlock, v.Digest}] += v.Power
	}
	for k, s := range sums {
		if 3*s > 2*total && (!final || k.b > block) {
			final, block, digest, power = true, k.b, k.d, s
		}
	}
	return final, block, digest, power
}

// TestPropertyAggregate: on random honest-shaped vote sets (each validator
// once per block), Aggregate agrees with the naive rule, does not depend on
// the order of votes, and never finds two final digests at one block.
func TestPropertyAggregate(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for round := 0; round < 3000; round++ {
		n := 1 + r.IntN(7)
		powers := make([]int64, n)
		var total int64
		for i := range powers {
			powers[i] = 1 + r.Int64N(100)
			total += powers[i]
		}
		total += r.Int64N(50) // some power did not vote at all
		var votes []Vote
		for _, block := range []uint64{360, 720, 1080}[:1+r.IntN(3)] {
			for i := 0; i < n; i++ {
				if r.IntN(4) == 0 {
					continue
				}
				votes = append(votes, Vote{Validator: []byte{byte('a' + i)}, Power: powers[i], ParentBlock: block, Digest: dg(byte(r.IntN(3)))})
			}
		}
		out, err := Aggregate(votes, total)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		final, block, digest, power := naiveAggregate(votes, total)
		if out.Final != final || (final && (out.ParentBlock != block || out.Digest != digest || out.Power != power)) {
			t.Fatalf("round %d: Aggregate = %+v, naive = %v %d %x %d", round, out, final, block, digest[0], power)
		}
		r.Shuffle(len(votes), func(i, j int) { votes[i], votes[j] = votes[j], votes[i] })
		if again, _ := Aggregate(votes, total); again != out {
			t.Fatalf("round %d: order changed the outcome: %+v vs %+v", round, again, out)
		}
	}
}
