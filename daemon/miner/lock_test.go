package miner

import (
	"errors"
	"testing"
)

// TestLockHome: a second lock of a home is refused while the first is
// held, and taken once it is released.
func TestLockHome(t *testing.T) {
	home := t.TempDir()
	unlock, err := lockHome(home)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockHome(home); !errors.Is(err, ErrLocked) {
		t.Fatalf("a second lock: %v, want ErrLocked", err)
	}
	unlock()
	unlock2, err := lockHome(home)
	if err != nil {
		t.Fatalf("after the release: %v", err)
	}
	unlock2()
}
