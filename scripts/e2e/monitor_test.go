//go:build e2e

package e2e

import (
	"sync"
	"time"
)

// monitor watches the chain's progress: the highest height any node reports, and the
// longest time it went without increasing.
type monitor struct {
	mu       sync.Mutex
	top      int64
	lastUp   time.Time
	maxStall time.Duration
	stallAt  int64
	stop     chan struct{}
	done     chan struct{}
}

// watch polls nw every interval until stopped.
func watch(nw *network, interval time.Duration) *monitor {
	m := &monitor{lastUp: time.Now(), stop: make(chan struct{}), done: make(chan struct{})}
	go pollEvery(interval, m.stop, m.done, func() { m.observe(nw.maxHeight(), time.Now()) })
	return m
}

// pollEvery calls f every interval until stop is closed, then closes done.
func pollEvery(interval time.Duration, stop <-chan struct{}, done chan<- struct{}, f func()) {
	defer close(done)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			f()
		}
	}
}

// observe records the top height h seen at time now.
func (m *monitor) observe(h int64, now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if h > m.top {
		m.top, m.lastUp = h, now
		return
	}
	if s := now.Sub(m.lastUp); s > m.maxStall {
		m.maxStall, m.stallAt = s, m.top
	}
}

// finish stops the monitor and returns the longest stall and the height it happened at.
func (m *monitor) finish() (time.Duration, int64, int64) {
	close(m.stop)
	<-m.done
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.maxStall, m.stallAt, m.top
}
