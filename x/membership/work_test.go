package membership

import (
	"errors"
	"math"
	"testing"
)

func TestFresh(t *testing.T) {
	p := Params{MaxPowAgeBlocks: 20}
	tests := []struct {
		work, height int64
		want         bool
	}{
		{99, 100, true},   // the block before
		{80, 100, true},   // the 20th block before
		{79, 100, false},  // the 21st
		{100, 100, false}, // the including block: its hash is not known yet
		{101, 100, false}, // a later block
		{math.MinInt64, math.MaxInt64, false},
		{math.MaxInt64 - 1, math.MaxInt64, true},
	}
	for _, tc := range tests {
		if got := Fresh(tc.work, tc.height, p); got != tc.want {
			t.Errorf("Fresh(%d, %d) = %v, want %v", tc.work, tc.height, got, tc.want)
		}
	}
	if Fresh(99, 100, Params{}) {
		t.Error("a window of 0 blocks accepts work")
	}
}

func TestCheckWork(t *testing.T) {
	sender, bh := vectorInputs()
	p := DefaultParams()
	good := Work{Height: 90, BlockHash: bh, Nonce: 1289} // meets 1000 (TestSolveVector)
	tests := []struct {
		name       string
		chainID    string
		sender     []byte
		w          Work
		height     int64
		difficulty uint64
		want       error
	}{
		{"valid", "subnet-test", sender, good, 100, 1000, nil},
		{"valid at the window's far end", "subnet-test", sender, good, 110, 1000, nil},
		{"stale", "subnet-test", sender, good, 111, 1000, ErrStaleWork},
		{"not yet committed", "subnet-test", sender, good, 90, 1000, ErrStaleWork},
		{"difficulty rose", "subnet-test", sender, good, 100, 1 << 20, ErrInsufficientWork},
		{"another sender", "subnet-test", bh, good, 100, 1000, ErrInsufficientWork},
		{"another chain", "subnet-tesu", sender, good, 100, 1000, ErrInsufficientWork},
		{"another block", "subnet-test", sender, Work{Height: 90, BlockHash: sender, Nonce: 1289}, 100, 1000, ErrInsufficientWork},
	}
	for _, tc := range tests {
		err := CheckWork(tc.chainID, tc.sender, tc.w, tc.height, tc.difficulty, p)
		if (tc.want == nil) != (err == nil) || (tc.want != nil && !errors.Is(err, tc.want)) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

func TestCheckBlockLimit(t *testing.T) {
	p := Params{MaxRegistrationsPerBlock: 2}
	for _, tc := range []struct {
		n    uint64
		full bool
	}{{0, false}, {1, false}, {2, true}, {3, true}} {
		err := CheckBlockLimit(tc.n, p)
		if tc.full != errors.Is(err, ErrBlockFull) || (!tc.full && err != nil) {
			t.Errorf("%d registered: %v", tc.n, err)
		}
	}
}
