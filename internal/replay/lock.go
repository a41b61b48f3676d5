package replay

import (
	"errors"
	"strings"
	"syscall"
)

// isLockError reports whether err is the refusal of a file lock held by another process.
// Badger formats the cause into its message instead of wrapping it, hence the text match.
func isLockError(err error) bool {
	return errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EAGAIN) ||
		strings.Contains(err.Error(), "Cannot acquire directory lock")
}
