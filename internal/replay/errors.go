package replay

import (
	"errors"
	"fmt"
)

// ErrPruned says that the block store no longer holds the blocks from the initial height,
// so the chain cannot be re-executed from genesis.
var ErrPruned = errors.New("block store is pruned (app.toml retain_blocks, or the node joined by state sync): blocks from the initial height are gone; replay an archive node's block store (retain_blocks = 0, synced from genesis)")

// MismatchError is the first height at which the replayed application's app hash differs
// from the one the chain committed to, with the state changes of that block.
type MismatchError struct {
	Height   int64
	Expected []byte
	Computed []byte
	// ExpectedFrom names where Expected was read: "header of block H+1" or "state store".
	ExpectedFrom string
	// Changes are the state changes of block Height in the replayed application (nil when
	// the target has no Dump or the diff could not be made; DiffErr says why).
	Changes []Change
	DiffErr error
	// ChangesNote qualifies Changes when they are not exactly the block's (InitChain).
	ChangesNote string
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("app hash mismatch at height %d: expected %X (%s), computed %X (%d state changes in the block)",
		e.Height, e.Expected, e.ExpectedFrom, e.Computed, len(e.Changes))
}
