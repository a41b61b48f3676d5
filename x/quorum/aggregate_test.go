package quorum

import (
	"errors"
	"math"
	"testing"

	"github.com/shopspring/decimal"
)

func vote(t *testing.T, addr string, power int64, values ...string) Vote {
	t.Helper()
	return Vote{Validator: []byte(addr), Power: power, Values: ds(t, values...)}
}

func TestAggregateQuorum(t *testing.T) {
	// Total power 12: 2/3 is 8, the default deadline quorum 1/2 is 6, 1/3
	// is 4; every threshold is strict.
	tests := []struct {
		name       string
		powers     []int64
		atDeadline bool
		want       Status
	}{
		{"nothing reported", nil, false, StatusPending},
		{"nothing at deadline expires", nil, true, StatusExpired},
		{"exactly 2/3 is not final", []int64{4, 4}, false, StatusPending},
		{"just over 2/3 is final", []int64{4, 5}, false, StatusFinal},
		{"all reported", []int64{4, 4, 4}, false, StatusFinal},
		{"just over 1/3 at deadline expires", []int64{5}, true, StatusExpired},
		{"exactly 1/2 at deadline expires", []int64{3, 3}, true, StatusExpired},
		{"just over 1/2 at deadline is final", []int64{3, 4}, true, StatusFinal},
		{"2/3 at deadline is final", []int64{4, 4}, true, StatusFinal},
		{"over 1/2 before deadline is pending", []int64{7}, false, StatusPending},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var votes []Vote
			for i, p := range tt.powers {
				votes = append(votes, vote(t, string(rune('a'+i)), p, "1"))
			}
			out, err := Aggregate(votes, 12, tt.atDeadline, DefaultRule())
			if err != nil {
				t.Fatal(err)
			}
			if out.Status != tt.want {
				t.Fatalf("status = %v, want %v", out.Status, tt.want)
			}
			if (out.Values != nil) != (tt.want == StatusFinal) {
				t.Fatalf("values = %v with status %v", out.Values, out.Status)
			}
		})
	}
}

func TestRuleDeadlineQuorum(t *testing.T) {
	// Each deadline quorum at and next to its own boundary, over total power
	// 10^18 (so that 18 places are seen) and over a small total.
	const big = int64(1_000_000_000_000_000_000)
	tests := []struct {
		q        string
		reported int64
		total    int64
		want     Status
	}{
		{"0.5", 50, 100, StatusExpired},
		{"0.5", 51, 100, StatusFinal},
		{"0.5", 1, 3, StatusExpired},
		{"0.5", 2, 3, StatusFinal},
		{"0.4", 40, 100, StatusExpired},
		{"0.4", 41, 100, StatusFinal},
		{"0.6", 60, 100, StatusExpired},
		{"0.6", 61, 100, StatusFinal},
		{"0.333333333333333334", 333_333_333_333_333_334, big, StatusExpired},
		{"0.333333333333333334", 333_333_333_333_333_335, big, StatusFinal},
		{"0.333333333333333334", 1, 3, StatusExpired}, // 1/3 < q
		{"0.666666666666666666", 2, 3, StatusFinal},   // 2/3 > q: the deadline still relaxes the quorum
		{"0.666666666666666666", 666_666_666_666_666_666, big, StatusExpired},
	}
	for _, tt := range tests {
		r, err := NewRule(decimal.RequireFromString(tt.q))
		if err != nil {
			t.Fatalf("NewRule(%s): %v", tt.q, err)
		}
		if got := r.Status(tt.reported, tt.total, true); got != tt.want {
			t.Errorf("q=%s: %d of %d at the deadline = %v, want %v", tt.q, tt.reported, tt.total, got, tt.want)
		}
		if !r.DeadlineQuorum().Equal(decimal.RequireFromString(tt.q)) {
			t.Errorf("DeadlineQuorum() = %s, want %s", r.DeadlineQuorum(), tt.q)
		}
	}
}

func TestNewRuleBounds(t *testing.T) {
	for _, q := range []string{"0.333333333333333334", "0.34", "0.5", "0.50000000000000000000", "0.6", "0.666666666666666666"} {
		if _, err := NewRule(decimal.RequireFromString(q)); err != nil {
			t.Errorf("NewRule(%s) = %v, want accepted", q, err)
		}
	}
	for _, q := range []string{"0", "-0.5", "0.333333333333333333", "0.3", "0.666666666666666667", "0.67", "1", "2", "0.5000000000000000001"} {
		_, err := NewRule(decimal.RequireFromString(q))
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != "deadline_quorum" || !errors.Is(err, ErrInvalidInput) {
			t.Errorf("NewRule(%s) = %v, want a deadline_quorum InputError", q, err)
		}
	}
	if !DefaultRule().DeadlineQuorum().Equal(decimal.RequireFromString("0.5")) {
		t.Fatalf("default deadline quorum = %s", DefaultRule().DeadlineQuorum())
	}
	if _, err := Aggregate(nil, 10, true, Rule{}); !errors.Is(err, ErrInvalidInput) {
		t.Fatalf("the zero Rule: err = %v, want ErrInvalidInput", err)
	}
}

func TestAggregateQuorumLargePowers(t *testing.T) {
	// reported × 3 overflows int64; the comparison must not.
	total := int64(math.MaxInt64)
	reported := total/3*2 + 2
	out, err := Aggregate([]Vote{vote(t, "a", reported, "1")}, total, false, DefaultRule())
	if err != nil || out.Status != StatusFinal {
		t.Fatalf("got %v, %v; want final", out.Status, err)
	}
	out, err = Aggregate([]Vote{vote(t, "a", total/3*2, "1")}, total, false, DefaultRule())
	if err != nil || out.Status != StatusPending {
		t.Fatalf("got %v, %v; want pending", out.Status, err)
	}
}

func TestAggregateValuesAndOrder(t *testing.T) {
	votes := []Vote{
		vote(t, "c", 1, "0.9", "30"),
		vote(t, "a", 1, "0.7", "10"),
		vote(t, "b", 1, "0.8", "20"),
		vote(t, "d", 1, "0.6", "40"),
	}
	out, err := Aggregate(votes, 4, false, DefaultRule())
	if err != nil {
		t.Fatal(err)
	}
	// Four equal powers: the cumulative power reaches half at the second value.
	assertDec(t, "field 0", out.Values[0], "0.7")
	assertDec(t, "field 1", out.Values[1], "20")
	if out.ReportedPower != 4 || out.TotalPower != 4 || out.Reporters != 4 {
		t.Fatalf("outcome = %+v", out)
	}
	if string(votes[0].Validator) != "c" {
		t.Fatal("Aggregate reordered the caller's votes")
	}
	reversed := []Vote{votes[3], votes[2], votes[1], votes[0]}
	out2, err := Aggregate(reversed, 4, false, DefaultRule())
	if err != nil || !out2.Values[0].Equal(out.Values[0]) || !out2.Values[1].Equal(out.Values[1]) {
		t.Fatalf("arrival order changed the result: %v %v", out2.Values, err)
	}
}

func TestAggregateErrors(t *testing.T) {
	tests := []struct {
		name  string
		votes []Vote
		total int64
	}{
		{"zero total", []Vote{vote(t, "a", 1, "1")}, 0},
		{"duplicate validator", []Vote{vote(t, "a", 1, "1"), vote(t, "a", 2, "2")}, 10},
		{"empty address", []Vote{vote(t, "", 1, "1")}, 10},
		{"zero power", []Vote{vote(t, "a", 0, "1")}, 10},
		{"negative power", []Vote{vote(t, "a", -1, "1")}, 10},
		{"reported above total", []Vote{vote(t, "a", 6, "1"), vote(t, "b", 5, "1")}, 10},
		{"different lengths", []Vote{vote(t, "a", 1, "1", "2"), vote(t, "b", 1, "1")}, 10},
		{"no values", []Vote{vote(t, "a", 1)}, 10},
		{"19 places", []Vote{{Validator: []byte("a"), Power: 1, Values: []decimal.Decimal{decimal.New(1, -19)}}}, 10},
		{"power overflow", []Vote{vote(t, "a", math.MaxInt64, "1"), vote(t, "b", 1, "1")}, math.MaxInt64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Aggregate(tt.votes, tt.total, true, DefaultRule()); !errors.Is(err, ErrInvalidInput) {
				t.Fatalf("err = %v, want ErrInvalidInput", err)
			}
		})
	}
}

func TestStatusString(t *testing.T) {
	for s, want := range map[Status]string{StatusPending: "pending", StatusFinal: "final", StatusExpired: "expired", Status(9): "status(9)"} {
		if s.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(s), s.String(), want)
		}
	}
}
