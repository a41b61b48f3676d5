package rounds

import (
	"testing"
	"time"
)

func TestLimiterSlots(t *testing.T) {
	t0 := time.Unix(1000, 0)
	now := t0
	l := newLimiter(4) // a slot every 250ms
	l.now = func() time.Time { return now }
	steps := []struct {
		advance time.Duration
		want    time.Duration // slot, from t0
	}{
		{0, 0},                             // first slot: now
		{0, 250 * time.Millisecond},        // queued behind it
		{0, 500 * time.Millisecond},        // and behind that
		{2 * time.Second, 2 * time.Second}, // idle: no burst credit is kept, the slot is now
		{0, 2*time.Second + 250*time.Millisecond},
	}
	for i, s := range steps {
		now = now.Add(s.advance)
		if got := l.reserve().Sub(t0); got != s.want {
			t.Fatalf("reservation %d at slot %s, want %s", i, got, s.want)
		}
	}
	if got := newLimiter(0.5).every; got != 2*time.Second {
		t.Fatalf("rate 0.5: every %s, want 2s", got)
	}
}
