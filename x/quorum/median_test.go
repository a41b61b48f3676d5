package quorum

import (
	"errors"
	"math"
	"testing"
)

func TestWeightedMedian(t *testing.T) {
	tests := []struct {
		name   string
		values []string
		powers []int64
		want   string
	}{
		{"single", []string{"7"}, []int64{5}, "7"},
		{"tie at exactly half resolves downward", []string{"2", "1"}, []int64{1, 1}, "1"},
		{"tie with unequal powers", []string{"10", "20", "30"}, []int64{3, 1, 2}, "10"},
		{"just over half", []string{"10", "20", "30"}, []int64{2, 1, 2}, "20"},
		{"a heavy validator wins", []string{"1", "2", "3", "100"}, []int64{1, 1, 1, 10}, "100"},
		{"outlier cannot move it", []string{"1.5", "1.5", "1.5", "999999"}, []int64{1, 1, 1, 1}, "1.5"},
		{"equal values", []string{"3", "3", "3"}, []int64{1, 2, 3}, "3"},
		{"negative values sort numerically", []string{"-1", "-10", "0"}, []int64{1, 1, 1}, "-1"},
		{"numeric, not lexical", []string{"9", "10", "11"}, []int64{1, 1, 1}, "10"},
		{"max powers do not overflow", []string{"1", "2"}, []int64{math.MaxInt64 / 2, math.MaxInt64 / 2}, "1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := WeightedMedian(ds(t, tt.values...), tt.powers)
			if err != nil {
				t.Fatal(err)
			}
			assertDec(t, "median", got, tt.want)
		})
	}
}

func TestWeightedMedianErrors(t *testing.T) {
	tests := []struct {
		name   string
		values []string
		powers []int64
	}{
		{"empty", nil, nil},
		{"length mismatch", []string{"1", "2"}, []int64{1}},
		{"zero power", []string{"1"}, []int64{0}},
		{"negative power", []string{"1", "2"}, []int64{1, -1}},
		{"overflow", []string{"1", "2"}, []int64{math.MaxInt64, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := WeightedMedian(ds(t, tt.values...), tt.powers); !errors.Is(err, ErrInvalidInput) {
				t.Fatalf("err = %v, want ErrInvalidInput", err)
			}
		})
	}
}

func TestWeightedMedianDoesNotReorderInputs(t *testing.T) {
	values := ds(t, "3", "1", "2")
	powers := []int64{1, 1, 1}
	if _, err := WeightedMedian(values, powers); err != nil {
		t.Fatal(err)
	}
	assertDec(t, "values[0]", values[0], "3")
	assertDec(t, "values[1]", values[1], "1")
}
