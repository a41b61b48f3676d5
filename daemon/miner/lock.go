package miner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// LockFile is the file whose flock a running daemon holds on its home.
func LockFile(home string) string { return filepath.Join(home, "miner", "lock") }

// ErrLocked: another miner daemon runs on the home.
var ErrLocked = errors.New("miner: another miner daemon runs on this home")

// lockHome takes the home's lock for as long as Run runs. Two daemons on
// one home would solve and price every target twice, race to store and
// reveal the same salts and take each other's nonces; the second one is
// refused instead. The lock is the kernel's (flock), so a daemon that dies
// leaves none behind.
func lockHome(home string) (unlock func(), err error) {
	path := LockFile(home)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w (%s is locked)", ErrLocked, path)
		}
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return func() { f.Close() }, nil
}
