package commit

import (
	"errors"
	"math/rand/v2"
	"testing"
)

func art(b byte) [32]byte { return [32]byte{b} }

func TestResolve(t *testing.T) {
	claims := []Claim{
		{Artifact: art(1), CommitHeight: 12, UID: 3},  // 0: later height: duplicate of uid 9
		{Artifact: art(1), CommitHeight: 11, UID: 9},  // 1: earliest commit of artifact 1: keeps it
		{Artifact: art(2), CommitHeight: 11, UID: 5},  // 2: same height as 3, higher uid: duplicate
		{Artifact: art(2), CommitHeight: 11, UID: 4},  // 3: lower uid at the same height: keeps it
		{Artifact: art(3), CommitHeight: 20, UID: 1},  // 4: alone: keeps it
		{Artifact: art(1), CommitHeight: 11, UID: 10}, // 5: same height as 1, higher uid: duplicate
	}
	want := []Verdict{
		{true, 9, 11}, {false, 9, 11}, {true, 4, 11}, {false, 4, 11}, {false, 1, 20}, {true, 9, 11},
	}
	got, err := Resolve(claims)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("claim %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if got, err := Resolve(nil); err != nil || len(got) != 0 {
		t.Errorf("Resolve(nil) = %v, %v", got, err)
	}
	_, err = Resolve([]Claim{{Artifact: art(1), UID: 4}, {Artifact: art(2), UID: 2}, {Artifact: art(3), UID: 4}})
	var ie *InputError
	if !errors.As(err, &ie) || ie.Field != "claims.uid" || ie.Value != uint32(4) {
		t.Errorf("repeated uid 4 across artifacts: %v", err)
	}
}

func TestPrecedes(t *testing.T) {
	cases := []struct {
		a, b Claim
		want bool
	}{
		{Claim{CommitHeight: 1, UID: 9}, Claim{CommitHeight: 2, UID: 1}, true}, // height first
		{Claim{CommitHeight: 2, UID: 1}, Claim{CommitHeight: 1, UID: 9}, false},
		{Claim{CommitHeight: 2, UID: 1}, Claim{CommitHeight: 2, UID: 2}, true}, // then uid
		{Claim{CommitHeight: 2, UID: 2}, Claim{CommitHeight: 2, UID: 1}, false},
		{Claim{CommitHeight: 2, UID: 2}, Claim{CommitHeight: 2, UID: 2}, false}, // irreflexive
	}
	for _, c := range cases {
		if got := Precedes(c.a, c.b); got != c.want {
			t.Errorf("Precedes(%+v, %+v) = %v", c.a, c.b, got)
		}
	}
}

// naiveVerdicts is the rule read literally: for each claim, scan every
// claim of the same artifact for the one with the lowest (height, uid).
func naiveVerdicts(claims []Claim) []Verdict {
	out := make([]Verdict, len(claims))
	for i, c := range claims {
		keeper := c
		for _, d := range claims {
			if d.Artifact == c.Artifact && (d.CommitHeight < keeper.CommitHeight ||
				d.CommitHeight == keeper.CommitHeight && d.UID < keeper.UID) {
				keeper = d
			}
		}
		out[i] = Verdict{Duplicate: keeper.UID != c.UID, KeeperUID: keeper.UID, KeeperHeight: keeper.CommitHeight}
	}
	return out
}

// TestPropertyResolveMatchesNaive: on random tasks (few artifacts and
// heights, so many collisions and ties) Resolve agrees with the naive rule,
// and with itself on every shuffle of the claims (reveal order is irrelevant).
func TestPropertyResolveMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 2))
	for round := 0; round < 3000; round++ {
		n := r.IntN(16)
		uids := r.Perm(40)
		claims := make([]Claim, n)
		for i := range claims {
			claims[i] = Claim{Artifact: art(byte(r.IntN(4))), CommitHeight: int64(r.IntN(3)), UID: uint32(uids[i])}
		}
		got, err := Resolve(claims)
		if err != nil {
			t.Fatal(err)
		}
		want := naiveVerdicts(claims)
		perm := r.Perm(n)
		shuffled := make([]Claim, n)
		for i, j := range perm {
			shuffled[i] = claims[j]
		}
		again, err := Resolve(shuffled)
		if err != nil {
			t.Fatal(err)
		}
		for i := range claims {
			if got[i] != want[i] {
				t.Fatalf("round %d claim %+v: %+v, naive %+v", round, claims[i], got[i], want[i])
			}
		}
		for i, j := range perm {
			if again[i] != got[j] {
				t.Fatalf("round %d: order changed the verdict of %+v: %+v vs %+v", round, claims[j], again[i], got[j])
			}
		}
		keepers := map[[32]byte]int{}
		for i := range claims {
			keepers[claims[i].Artifact] += 0
			if !got[i].Duplicate {
				keepers[claims[i].Artifact]++
			}
		}
		for a, k := range keepers {
			if k != 1 {
				t.Fatalf("round %d: artifact %x has %d keepers", round, a[:1], k)
			}
		}
	}
}
