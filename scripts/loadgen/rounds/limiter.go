package rounds

import (
	"context"
	"sync"
	"time"
)

// limiter spaces transactions at most rate per second across all senders.
type limiter struct {
	mu    sync.Mutex
	every time.Duration
	next  time.Time
	now   func() time.Time
}

func newLimiter(rate float64) *limiter {
	return &limiter{every: time.Duration(float64(time.Second) / rate), now: time.Now}
}

// reserve returns the time of the caller's slot and moves the next slot on.
func (l *limiter) reserve() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now := l.now(); l.next.Before(now) {
		l.next = now
	}
	at := l.next
	l.next = l.next.Add(l.every)
	return at
}

// wait blocks until the caller may send one transaction.
func (l *limiter) wait(ctx context.Context) error {
	t := time.NewTimer(time.Until(l.reserve()))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
