package replay

import (
	"fmt"
	"io"
	"time"
)

// progress writes at most one line per interval: height, blocks/s, ETA.
type progress struct {
	w        io.Writer
	now      func() time.Time
	every    time.Duration
	from, to int64
	start    time.Time
	last     time.Time
}

func newProgress(w io.Writer, now func() time.Time, every time.Duration, from, to int64) *progress {
	if now == nil {
		now = time.Now
	}
	if every <= 0 {
		every = 2 * time.Second
	}
	t := now()
	return &progress{w: w, now: now, every: every, from: from, to: to, start: t, last: t}
}

// done reports that height h has been executed; final forces a line.
func (p *progress) done(h int64, final bool) {
	if p.w == nil {
		return
	}
	t := p.now()
	if !final && t.Sub(p.last) < p.every {
		return
	}
	p.last = t
	fmt.Fprintln(p.w, progressLine(h, p.from, p.to, t.Sub(p.start)))
}

// progressLine formats one progress line after executing heights from..h of from..to in
// elapsed time.
func progressLine(h, from, to int64, elapsed time.Duration) string {
	n := h - from + 1
	if n <= 0 || elapsed <= 0 {
		return fmt.Sprintf("replay: height %d/%d", h, to)
	}
	rate := float64(n) / elapsed.Seconds()
	eta := time.Duration(float64(to-h) / rate * float64(time.Second)).Round(time.Second)
	return fmt.Sprintf("replay: height %d/%d  %.1f blocks/s  ETA %s", h, to, rate, eta)
}
