package quorum

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

func TestVerdict(t *testing.T) {
	cases := []struct {
		name    string
		choices []Choice
		total   int64
		want    uint64
		ok      bool
	}{
		{"no votes", nil, 100, 0, false},
		{"all name none", []Choice{{40, 0}, {40, 0}}, 100, 0, false},
		{"all name 7", []Choice{{40, 7}, {40, 7}}, 100, 7, true},
		{"exactly half is no majority", []Choice{{40, 7}, {40, 0}}, 100, 0, false},
		{"just over half", []Choice{{41, 7}, {40, 0}}, 100, 7, true},
		{"majority split over names", []Choice{{30, 7}, {30, 8}, {10, 0}}, 100, 0, false},
		{"name order does not matter", []Choice{{10, 0}, {31, 8}, {30, 7}}, 100, 0, false},
		{"the name with the majority among others", []Choice{{10, 8}, {50, 7}, {10, 0}}, 100, 7, true},
		// a deadline settlement of 1/2 of the power: the majority of the
		// reporters is below 1/3 of the total, so it names nothing
		{"majority of a deadline quorum below 1/3", []Choice{{32, 7}, {19, 0}}, 100, 0, false},
		{"exactly 1/3 of the total", []Choice{{1, 7}, {1, 0}, {1, 7}}, 6, 7, true},
		{"just under 1/3 of the total", []Choice{{33, 7}, {20, 0}}, 100, 0, false},
	}
	for _, tc := range cases {
		got, ok := Verdict(tc.choices, tc.total)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: Verdict = %d, %v; want %d, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

// naiveVerdict is the rule in rationals over every name's total.
func naiveVerdict(choices []Choice, total int64) (uint64, bool) {
	sums := map[uint64]int64{}
	var reported int64
	for _, c := range choices {
		sums[c.Name] += c.Power
		reported += c.Power
	}
	var found []uint64
	for n, p := range sums {
		if n != 0 && big.NewRat(p, reported).Cmp(big.NewRat(1, 2)) > 0 && big.NewRat(p, total).Cmp(big.NewRat(1, 3)) >= 0 {
			found = append(found, n)
		}
	}
	if len(found) == 0 {
		return 0, false
	}
	return found[0], true // a strict majority has at most one name
}

func TestPropertyVerdictMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for round := 0; round < 5000; round++ {
		n := r.IntN(10)
		choices := make([]Choice, n)
		var reported int64
		for i := range choices {
			choices[i] = Choice{Power: 1 + r.Int64N(20), Name: uint64(r.IntN(3))}
			reported += choices[i].Power
		}
		total := reported + r.Int64N(40)
		if total == 0 {
			total = 1
		}
		gn, gok := Verdict(choices, total)
		wn, wok := naiveVerdict(choices, total)
		if gn != wn || gok != wok {
			t.Fatalf("choices %v total %d: got %d, %v; want %d, %v", choices, total, gn, gok, wn, wok)
		}
	}
}

// TestPropertyVerdictMinority: validators of random powers, a coalition of
// less than 1/3 of the total voting anything, the honest validators (some
// absent) agreeing on one answer v (a name or none). Whenever the votes
// settle — early (over 2/3 reported) or at a deadline (over the deadline
// quorum) — the verdict is v or none: the coalition never names a
// submission the honest validators judge original; and at the early
// quorum, where the honest reporters outweigh the coalition, it is exactly
// v. With the honest validators split over answers, a verdict is always a
// name some honest validator gave.
func TestPropertyVerdictMinority(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for round := 0; round < 20000; round++ {
		n := 1 + r.IntN(9)
		powers := make([]int64, n)
		var total int64
		for i := range powers {
			powers[i] = 1 + r.Int64N(30)
			total += powers[i]
		}
		coalition := make([]bool, n)
		var cp int64
		for i := range powers {
			if r.IntN(3) == 0 && 3*(cp+powers[i]) < total {
				coalition[i], cp = true, cp+powers[i]
			}
		}
		split := r.IntN(4) == 0
		v := uint64(r.IntN(3)) // the honest answer: 0 (none), 1 or 2
		var choices []Choice
		var reported int64
		honestNames := map[uint64]bool{}
		for i, p := range powers {
			if r.IntN(4) == 0 { // absent
				continue
			}
			name := v
			switch {
			case coalition[i]:
				name = uint64(r.IntN(3))
			case split:
				name = uint64(r.IntN(3))
				honestNames[name] = true
			default:
				honestNames[name] = true
			}
			choices = append(choices, Choice{Power: p, Name: name})
			reported += p
		}
		early := 3*reported > 2*total
		if !early && 2*reported <= total { // below the default deadline quorum: nothing settles
			continue
		}
		got, ok := Verdict(choices, total)
		if ok && !honestNames[got] {
			t.Fatalf("powers %v coalition %v choices %v: verdict %d, which no honest validator gave", powers, coalition, choices, got)
		}
		if split {
			continue
		}
		if ok && got != v {
			t.Fatalf("powers %v coalition %v choices %v: verdict %d, honest %d", powers, coalition, choices, got, v)
		}
		if early && v != 0 && !ok {
			t.Fatalf("powers %v coalition %v choices %v: early quorum with every honest reporter naming %d, no verdict", powers, coalition, choices, v)
		}
	}
}
