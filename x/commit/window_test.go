package commit

import (
	"errors"
	"math"
	"testing"
)

func TestWindows(t *testing.T) {
	p := Params{RevealBlocks: 3}
	cases := []struct {
		name string
		w    Window
		in   []int64
		out  []int64
	}{
		// Posted at 5 with submission_blocks 5: commits at 5…10.
		{"task commit", TaskCommit(5, 10), []int64{5, 10}, []int64{4, 11}},
		// Reveals in the 3 blocks after the deadline 10: 11…13.
		{"task reveal", TaskReveal(10, p), []int64{11, 12, 13}, []int64{10, 14}},
		// The EVM block closed at 20: reveals at 21…23, never in the closing block.
		{"gas reveal", GasReveal(20, p), []int64{21, 23}, []int64{20, 24}},
		{"one-block reveal", TaskReveal(10, Params{RevealBlocks: 1}), []int64{11}, []int64{10, 12}},
		{"empty", Window{First: 2, Last: 1}, nil, []int64{1, 2}},
	}
	for _, c := range cases {
		for _, h := range c.in {
			if !c.w.Contains(h) {
				t.Errorf("%s %v: %d not contained", c.name, c.w, h)
			}
		}
		for _, h := range c.out {
			if c.w.Contains(h) {
				t.Errorf("%s %v: %d contained", c.name, c.w, h)
			}
		}
	}
	// Deadline 10, 3 reveal blocks, 4 report blocks: reports until 17.
	if got := ReportDeadline(10, p, 4); got != 17 {
		t.Errorf("ReportDeadline = %d, want 17", got)
	}
}

func TestGasCounts(t *testing.T) {
	cases := []struct {
		commit, evm, margin int64
		want                bool
	}{
		{100, 102, 2, true},  // exactly the margin before
		{101, 102, 2, false}, // 1 s before, margin 2
		{100, 101, 1, true},  // margin 1: the old "strictly before" rule
		{101, 101, 1, false},
		{101, 101, 0, true}, // margin 0 (refused by Validate) allows equal times
		{102, 101, 0, false},
		{100, 102, -5, true}, // a negative margin is 0
		{102, 101, -5, false},
		{math.MinInt64, math.MaxInt64, math.MaxInt64, true}, // difference 2^64 - 1: no overflow
		{math.MaxInt64, math.MinInt64, 1, false},
		{-1, math.MaxInt64, math.MaxInt64, true}, // difference exactly 2^63
		{0, math.MaxInt64, math.MaxInt64, true},
		{1, math.MaxInt64, math.MaxInt64, false},
	}
	for _, c := range cases {
		if got := GasCounts(c.commit, c.evm, c.margin); got != c.want {
			t.Errorf("GasCounts(%d, %d, %d) = %v, want %v", c.commit, c.evm, c.margin, got, c.want)
		}
	}
}

func TestParamsValidate(t *testing.T) {
	cases := []struct {
		name  string
		p     Params
		gas   bool
		field string // "" = valid
	}{
		{"task default", DefaultParams(false), false, ""},
		{"gas default", DefaultParams(true), true, ""},
		{"reveal 1", Params{RevealBlocks: 1}, false, ""},
		{"reveal 1000", Params{RevealBlocks: 1000}, false, ""},
		{"reveal 0", Params{RevealBlocks: 0}, false, "reveal_blocks"},
		{"reveal 1001", Params{RevealBlocks: 1001}, false, "reveal_blocks"},
		{"task with margin", Params{RevealBlocks: 1, CommitMarginSeconds: 2}, false, "commit_margin_seconds"},
		{"gas margin 1", Params{RevealBlocks: 1, CommitMarginSeconds: 1}, true, ""},
		{"gas margin 300", Params{RevealBlocks: 1, CommitMarginSeconds: 300}, true, ""},
		{"gas margin 0", Params{RevealBlocks: 1}, true, "commit_margin_seconds"},
		{"gas margin 301", Params{RevealBlocks: 1, CommitMarginSeconds: 301}, true, "commit_margin_seconds"},
	}
	for _, c := range cases {
		err := c.p.Validate(c.gas)
		var ie *InputError
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.field != "" && (!errors.As(err, &ie) || ie.Field != c.field || !errors.Is(err, ErrInvalidInput)):
			t.Errorf("%s: %v, want an *InputError naming %s", c.name, err, c.field)
		}
	}
	if d := DefaultParams(true); d.RevealBlocks != 10 || d.CommitMarginSeconds != 2 {
		t.Errorf("DefaultParams(true) = %+v, want {10 2}", d)
	}
}
