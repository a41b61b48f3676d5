package main

import (
	"strings"
	"testing"
)

func TestEditDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"task", "task", 0},
		{"taks", "task", 1},   // one swap
		{"qurey", "query", 1}, // one swap
		{"minr", "miner", 1},  // one insertion
		{"miner", "minr", 1},  // one deletion
		{"tax", "tx", 1},
		{"gas", "gsa", 1},
		{"kitten", "sitting", 3},
		{"ca", "abc", 3}, // optimal string alignment: no edit of a swapped pair
		{"evm-chain", "evm-chain-id", 3},
	}
	for _, c := range cases {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestClosest(t *testing.T) {
	names := []string{"export", "init", "keys", "query", "score", "snapshot", "start", "tx", "wait", "weights"}
	cases := []struct {
		word, want string
	}{
		{"qurey", "query"},
		{"quer", "query"},
		{"strat", "start"},
		{"snap", "snapshot"}, // a prefix when nothing is near
		{"wiat", "wait"},
		{"t", "tx"},
		{"stor", "score start"}, // two at the same distance
		{"bogus", ""},
		{"xyz", ""},
		{"", ""},
	}
	for _, c := range cases {
		if got := strings.Join(closest(c.word, names), " "); got != c.want {
			t.Errorf("closest(%q) = %q, want %q", c.word, got, c.want)
		}
	}
	if got := didYouMean("taks", []string{"task", "track", "limit"}); got != " (did you mean task?)" {
		t.Errorf("didYouMean = %q", got)
	}
	if got := didYouMean("zzzz", []string{"task"}); got != "" {
		t.Errorf("didYouMean of nothing near = %q", got)
	}
}
