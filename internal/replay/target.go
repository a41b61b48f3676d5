package replay

import (
	abci "github.com/cometbft/cometbft/abci/types"
)

// Target is the application a replay re-executes into.
type Target struct {
	// Open returns a fresh application whose state lives in dir (an empty directory), and
	// a function that closes it and releases dir.
	Open func(dir string) (abci.Application, func() error, error)
	// Dump lists every state entry that a closed application left in dir, sorted by key.
	// It is used only to explain a mismatch; nil disables the diff.
	Dump func(dir string) ([]Entry, error)
}
