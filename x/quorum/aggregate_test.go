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
	// Total power 9: 2/3 is 6, 1/3 is 3; both thresholds are strict.
	tests := []struct {
		name       string
		powers     []int64
		atDeadline bool
		want       Status
	}{
		{"nothing reported", nil, false, StatusPending},
		{"nothing at deadline expires", nil, true, StatusExpired},
		{"exactly 2/3 is not final", []int64{3, 3}, false, StatusPending},
		{"just over 2/3 is final", []int64{3, 4}, false, StatusFinal},
		{"all reported", []int64{3, 3, 3}, false, StatusFinal},
		{"exactly 1/3 at deadline expires", []int64{3}, true, StatusExpired},
		{"just over 1/3 at deadline is final", []int64{4}, true, StatusFinal},
		{"2/3 at deadline is final", []int64{3, 3}, true, StatusFinal},
		{"over 1/3 before deadline is pending", []int64{4}, false, StatusPending},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var votes []Vote
			for i, p := range tt.powers {
				votes = append(votes, vote(t, string(rune('a'+i)), p, "1"))
			}
			out, err := Aggregate(votes, 9, tt.atDeadline)
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

func TestAggregateQuorumLargePowers(t *testing.T) {
	// reported × 3 overflows int64; the comparison must not.
	total := int64(math.MaxInt64)
	reported := total/3*2 + 2
	out, err := Aggregate([]Vote{vote(t, "a", reported, "1")}, total, false)
	if err != nil || out.Status != StatusFinal {
		t.Fatalf("got %v, %v; want final", out.Status, err)
	}
	out, err = Aggregate([]Vote{vote(t, "a", total/3*2, "1")}, total, false)
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
	out, err := Aggregate(votes, 4, false)
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
	out2, err := Aggregate(reversed, 4, false)
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
			if _, err := Aggregate(tt.votes, tt.total, true); !errors.Is(err, ErrInvalidInput) {
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
