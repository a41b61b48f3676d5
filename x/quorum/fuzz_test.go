package quorum

import (
	"errors"
	"slices"
	"testing"

	"github.com/shopspring/decimal"
)

// decodeVotes turns fuzz bytes into votes: per vote, 1 address byte, 1 power
// byte (0 and values above 200 allowed, to reach the errors), then fields
// values of one signed byte each at 1 decimal place.
func decodeVotes(data []byte, fields int) []Vote {
	var votes []Vote
	for len(data) >= 2+fields {
		v := Vote{Validator: []byte{data[0]}, Power: int64(data[1]) - 5}
		for k := 0; k < fields; k++ {
			v.Values = append(v.Values, decimal.New(int64(int8(data[2+k])), -1))
		}
		votes = append(votes, v)
		data = data[2+fields:]
	}
	return votes
}

func FuzzWeightedMedian(f *testing.F) {
	f.Add([]byte{1, 10, 2, 10})
	f.Add([]byte{1, 1, 2, 1, 3, 1, 4, 1})
	f.Add([]byte{255, 200, 0, 6, 128, 6})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		var values []decimal.Decimal
		var powers []int64
		for i := 0; i+1 < len(data); i += 2 {
			values = append(values, decimal.NewFromInt(int64(int8(data[i]))))
			powers = append(powers, int64(data[i+1])-5)
		}
		m, err := WeightedMedian(values, powers)
		if err != nil {
			if !errors.Is(err, ErrInvalidInput) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		var below, atOrBelow, total int64
		for i, v := range values {
			total += powers[i]
			if v.Cmp(m) < 0 {
				below += powers[i]
			}
			if v.Cmp(m) <= 0 {
				atOrBelow += powers[i]
			}
		}
		// m is the smallest value whose cumulative power reaches half.
		if !slices.ContainsFunc(values, m.Equal) || atOrBelow*2 < total || below*2 >= total {
			t.Fatalf("median %s of %v / %v is not the lower weighted median", m, values, powers)
		}
	})
}

func FuzzAggregate(f *testing.F) {
	f.Add([]byte{1, 30, 8, 2, 30, 6, 3, 10, 9}, int64(100), false)
	f.Add([]byte{1, 15, 8, 1, 15, 6}, int64(30), true)
	f.Add([]byte{9, 0, 1}, int64(1), true)
	f.Add([]byte{}, int64(0), false)
	f.Fuzz(func(t *testing.T, data []byte, total int64, deadline bool) {
		votes := decodeVotes(data, 2)
		out, err := Aggregate(votes, total, deadline, DefaultRule())
		if err != nil {
			if !errors.Is(err, ErrInvalidInput) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if out.ReportedPower > out.TotalPower || (out.Status == StatusFinal) != (out.Values != nil) {
			t.Fatalf("inconsistent outcome %+v", out)
		}
		if out.Status == StatusFinal && !mulGreater(out.ReportedPower, 2, total, 1) {
			t.Fatalf("final with at most 1/2 of the power (the default deadline quorum): %+v", out)
		}
		slices.Reverse(votes)
		again, err := Aggregate(votes, total, deadline, DefaultRule())
		if err != nil || again.Status != out.Status || !slices.EqualFunc(again.Values, out.Values, decimal.Decimal.Equal) {
			t.Fatalf("vote order changed the outcome: %+v vs %+v (%v)", again, out, err)
		}
	})
}
