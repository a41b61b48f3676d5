package replay

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestProgressLine(t *testing.T) {
	for _, tc := range []struct {
		h, from, to int64
		elapsed     time.Duration
		want        string
	}{
		{h: 10, from: 1, to: 100, elapsed: 2 * time.Second, want: "replay: height 10/100  5.0 blocks/s  ETA 18s"},
		{h: 100, from: 1, to: 100, elapsed: 10 * time.Second, want: "replay: height 100/100  10.0 blocks/s  ETA 0s"},
		{h: 1, from: 1, to: 1, elapsed: 0, want: "replay: height 1/1"},
		{h: 5, from: 5, to: 9, elapsed: 500 * time.Millisecond, want: "replay: height 5/9  2.0 blocks/s  ETA 2s"},
	} {
		if got := progressLine(tc.h, tc.from, tc.to, tc.elapsed); got != tc.want {
			t.Errorf("progressLine(%d,%d,%d,%s) = %q, want %q", tc.h, tc.from, tc.to, tc.elapsed, got, tc.want)
		}
	}
}

func TestProgressThrottles(t *testing.T) {
	var w bytes.Buffer
	now := time.Unix(0, 0)
	clock := func() time.Time { return now }
	p := newProgress(&w, clock, time.Second, 1, 10)
	for h := int64(1); h <= 10; h++ {
		now = now.Add(300 * time.Millisecond) // a line at most every 1s: at h=4 and h=8, plus the final one
		p.done(h, h == 10)
	}
	if n := strings.Count(w.String(), "\n"); n != 3 {
		t.Fatalf("%d lines, want 3:\n%s", n, w.String())
	}
}
