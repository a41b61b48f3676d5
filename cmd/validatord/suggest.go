package main

import (
	"slices"
	"strings"
)

// editDistance is the optimal string alignment distance of a and b: the
// fewest insertions, deletions, substitutions and swaps of two neighbouring
// bytes that turn a into b ("taks" is one swap from "task").
func editDistance(a, b string) int {
	// d[i][j] is the distance of a[:i] and b[:j].
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// closest are the names nearest to word: those at the smallest edit
// distance when it is at most a third of the word's length (at least 1),
// else those that word begins (at least 3 letters typed); sorted, at most 3.
func closest(word string, names []string) []string {
	best, out := max(1, (len(word)+2)/3)+1, []string(nil)
	for _, n := range names {
		switch d := editDistance(word, n); {
		case d < best:
			best, out = d, []string{n}
		case d == best && out != nil && !slices.Contains(out, n):
			out = append(out, n)
		}
	}
	if out == nil && len(word) >= 3 {
		for _, n := range names {
			if strings.HasPrefix(n, word) && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	slices.Sort(out)
	return out[:min(len(out), 3)]
}

// didYouMean is " (did you mean a or b?)" for the names closest to word,
// "" when none is close.
func didYouMean(word string, names []string) string {
	near := closest(word, names)
	if len(near) == 0 {
		return ""
	}
	return " (did you mean " + strings.Join(near, " or ") + "?)"
}
