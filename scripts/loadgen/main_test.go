package main

import (
	"slices"
	"testing"
)

func TestModeOf(t *testing.T) {
	for _, c := range []struct {
		args []string
		mode string
		rest []string
	}{
		{nil, "rounds", nil},
		{[]string{"--testnet", "x"}, "rounds", []string{"--testnet", "x"}},
		{[]string{"rounds", "--rate", "5"}, "rounds", []string{"--rate", "5"}},
		{[]string{"flood", "--flood-rate", "500"}, "flood", []string{"--flood-rate", "500"}},
		{[]string{"adversary", "--adversary", "3"}, "adversary", []string{"--adversary", "3"}},
		{[]string{"bench", "table", "dir"}, "bench", []string{"table", "dir"}},
		{[]string{"demo", "--home", "h"}, "demo", []string{"--home", "h"}},
	} {
		mode, rest := modeOf(c.args)
		if mode != c.mode || !slices.Equal(rest, c.rest) {
			t.Errorf("modeOf(%q) = %q %q, want %q %q", c.args, mode, rest, c.mode, c.rest)
		}
	}
}
