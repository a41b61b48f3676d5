package quorum

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"
)

// TestDeadlineAttackUnderAThird is the attack on the deadline quorum alone:
// a validator of 32% reports nothing done (0.1), one of 19% the honest
// 0.8575. 51 of 100 passes the deadline quorum 1/2, and the weighted median
// is the attacker's (32 × 2 ≥ 51); the timestamp likewise 300 s ahead.
// The reports ≤ 0.1 hold 32 < 1/3 of the total, so 0.1 is not bracketed
// (the 32 may all be a coalition's): the item is contested and nothing
// settles. Before the bracket rule, 0.1 settled.
func TestDeadlineAttackUnderAThird(t *testing.T) {
	votes := []Vote{vote(t, "attacker", 32, "0.1", "1700000300"), vote(t, "honest", 19, "0.8575", "1700000000")}
	out, err := Aggregate(votes, 100, true, DefaultRule())
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != StatusContested || out.Values != nil {
		t.Fatalf("32%% attacker + 19%% honest at the deadline = %v %v, want contested with no values", out.Status, out.Values)
	}
	if fmt.Sprint(out.Unbracketed) != "[0 1]" {
		t.Fatalf("unbracketed fields = %v, want [0 1] (the value and the timestamp)", out.Unbracketed)
	}
	if out.ReportedPower != 51 || out.Reporters != 2 {
		t.Fatalf("reported %d by %d, want 51 by 2", out.ReportedPower, out.Reporters)
	}
	// With 15 more honest power agreeing, the honest side holds 34 ≥ 1/3:
	// the item settles, on the honest values.
	votes = append(votes, vote(t, "honest2", 15, "0.8575", "1700000000"))
	out, err = Aggregate(votes, 100, true, DefaultRule())
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != StatusFinal {
		t.Fatalf("32 attacker + 34 honest at the deadline = %v, want final", out.Status)
	}
	assertDec(t, "value", out.Values[0], "0.8575")
	assertDec(t, "timestamp", out.Values[1], "1700000000")
}

func TestBracketedBoundaries(t *testing.T) {
	// Total 9: a third is exactly 3.
	tests := []struct {
		name   string
		values []string
		powers []int64
		v      string
		want   bool
	}{
		{"exactly a third below", []string{"1", "2"}, []int64{3, 3}, "1", true}, // 3 × 3 ≥ 9 and 3 × 6 ≥ 9
		{"one third below, two above", []string{"1", "2"}, []int64{3, 3}, "2", true},
		{"a value on both sides counts twice", []string{"5"}, []int64{3}, "5", true},
		{"just under a third below", []string{"1", "2"}, []int64{2, 6}, "1", false},
		{"just under a third above", []string{"1", "2"}, []int64{6, 2}, "2", false},
	}
	for _, tt := range tests {
		if got := Bracketed(ds(t, tt.values...), tt.powers, decimal.RequireFromString(tt.v), 9); got != tt.want {
			t.Errorf("%s: Bracketed = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestPropertyDeadlineCoalitionUnderAThird: for any split of the total
// power into validators, any coalition holding less than 1/3 of the total
// (reporting anything, or nothing), and any honest reports from any subset
// of the other validators, at a deadline either nothing settles or every
// settled field lies within [least honest report, greatest honest report].
// Also: a settlement with more than 2/3 reported is never contested (the
// early quorum is unchanged), and with nobody lying and all honest
// reporters agreeing, every deadline-quorum settlement goes through.
func TestPropertyDeadlineCoalitionUnderAThird(t *testing.T) {
	const cases = 100_000
	r := rand.New(rand.NewPCG(29, 3))
	var settled, contested int
	for round := 0; round < cases; round++ {
		rule := randRule(t, r)
		c := coalitionCase(r)
		out, err := Aggregate(c.votes, c.total, true, rule)
		if err != nil {
			t.Fatal(err)
		}
		where := func() string {
			return fmt.Sprintf("round %d: q %s, total %d, coalition %d, votes %v: %v %v", round, rule.DeadlineQuorum(), c.total, c.coalition, c.votes, out.Status, out.Values)
		}
		if mulGreater(out.ReportedPower, 3, c.total, 2) && out.Status != StatusFinal {
			t.Fatalf("more than 2/3 reported, not final: %s", where())
		}
		early, err := Aggregate(c.votes, c.total, false, rule)
		if err != nil {
			t.Fatal(err)
		}
		if early.Status == StatusContested || (early.Status == StatusFinal && out.Status != StatusFinal) {
			t.Fatalf("before the deadline %v, at it %v: the early quorum is always bracketed: %s", early.Status, out.Status, where())
		}
		switch out.Status {
		case StatusContested:
			contested++
			continue
		case StatusFinal:
			settled++
		default:
			continue
		}
		for f, v := range out.Values {
			if !c.hasHonest || v.Cmp(c.lo[f]) < 0 || v.Cmp(c.hi[f]) > 0 {
				t.Fatalf("field %d settled outside the honest range [%s, %s]: %s", f, c.lo[f], c.hi[f], where())
			}
		}
	}
	t.Logf("%d cases: %d settled, %d contested", cases, settled, contested)
	if settled == 0 || contested == 0 {
		t.Fatalf("the cases never settle or never contest: %d settled, %d contested", settled, contested)
	}
}

func TestPropertyDeadlineHonestAgreeingSettles(t *testing.T) {
	const cases = 20_000
	r := rand.New(rand.NewPCG(29, 4))
	for round := 0; round < cases; round++ {
		rule := randRule(t, r)
		n := 1 + r.IntN(12)
		value := []decimal.Decimal{decimal.New(r.Int64N(1_000_001), -6), decimal.NewFromInt(1_700_000_000 + r.Int64N(1000))}
		var votes []Vote
		var total, reported int64
		for i := 0; i < n; i++ {
			p := randPower(r)
			total += p
			if r.IntN(3) > 0 {
				votes = append(votes, Vote{Validator: []byte{byte(i)}, Power: p, Values: value})
				reported += p
			}
		}
		out, err := Aggregate(votes, total, true, rule)
		if err != nil {
			t.Fatal(err)
		}
		want := rule.Status(reported, total, true)
		if out.Status != want || (want == StatusFinal && (!out.Values[0].Equal(value[0]) || !out.Values[1].Equal(value[1]))) {
			t.Fatalf("round %d: honest agreeing on %v, %d of %d reported: %v %v, want %v", round, value, reported, total, out.Status, out.Values, want)
		}
	}
}

// coalition is one drawn case: the votes, the total power, the coalition's
// power and the honest reports' range per field.
type coalition struct {
	votes     []Vote
	total     int64
	coalition int64
	hasHonest bool
	lo, hi    [2]decimal.Decimal
}

func randPower(r *rand.Rand) int64 {
	switch r.IntN(4) {
	case 0:
		return 1 + r.Int64N(1<<40) // heavy validators
	case 1:
		return 1 + r.Int64N(3) // many ties of power
	}
	return 1 + r.Int64N(100)
}

// coalitionCase splits a total into validators, marks a coalition of less
// than 1/3 of it (validators taken in random order while they fit), lets
// each honest validator report or not (values spread, or nearly agreeing),
// and lets the coalition report below, above or around the honest values,
// split or not, or not at all.
func coalitionCase(r *rand.Rand) coalition {
	n := 1 + r.IntN(12)
	powers := make([]int64, n)
	var c coalition
	for i := range powers {
		powers[i] = randPower(r)
		c.total += powers[i]
	}
	bad := make([]bool, n)
	for _, i := range r.Perm(n) {
		if r.IntN(2) == 0 && 3*(c.coalition+powers[i]) < c.total { // powers ≤ 2^40: no overflow
			bad[i], c.coalition = true, c.coalition+powers[i]
		}
	}
	spread := int64(1 + r.IntN(1000))
	direction := r.IntN(4)
	for i, p := range powers {
		var vals []decimal.Decimal
		if bad[i] {
			if r.IntN(6) == 0 {
				continue // the coalition may stay silent
			}
			d := direction
			if d == 3 {
				d = r.IntN(3)
			}
			vals = coalitionValues(r, d)
		} else {
			if r.IntN(3) == 0 {
				continue // an honest validator that did not report
			}
			vals = []decimal.Decimal{decimal.NewFromInt(5000 + r.Int64N(spread)), decimal.NewFromInt(1_700_000_000 + r.Int64N(spread))}
			for f, v := range vals {
				if !c.hasHonest || v.Cmp(c.lo[f]) < 0 {
					c.lo[f] = v
				}
				if !c.hasHonest || v.Cmp(c.hi[f]) > 0 {
					c.hi[f] = v
				}
			}
			c.hasHonest = true
		}
		c.votes = append(c.votes, Vote{Validator: []byte(fmt.Sprintf("v%02d", i)), Power: p, Values: vals})
	}
	return c
}

// coalitionValues: 0 below every honest value, 1 above, 2 among them.
func coalitionValues(r *rand.Rand, direction int) []decimal.Decimal {
	switch direction {
	case 0:
		return []decimal.Decimal{decimal.NewFromInt(r.Int64N(5000)), decimal.NewFromInt(r.Int64N(1_700_000_000))}
	case 1:
		return []decimal.Decimal{decimal.NewFromInt(6000 + r.Int64N(5000)), decimal.NewFromInt(1_700_001_000 + r.Int64N(300))}
	}
	return []decimal.Decimal{decimal.NewFromInt(5000 + r.Int64N(1000)), decimal.NewFromInt(1_700_000_000 + r.Int64N(1000))}
}
