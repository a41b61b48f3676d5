package app

import (
	"context"
	"errors"
	"fmt"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/store"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Commit writes the finalized block's changes (with InitChain's, at the
// first block), the height, the app hash and the hash lanes in ONE badger
// transaction, then moves the committed view. The transaction reaches the
// disk as Config.Durability says (durable.go): by default before Commit
// returns; pipelined, its write and sync run while the next block
// executes, and this Commit first waits for the previous block's.
func (a *App) Commit(context.Context, *abcitypes.RequestCommit) (*abcitypes.ResponseCommit, error) {
	a.lockAll()
	defer a.unlockAll()
	res := a.pending
	if res == nil {
		return nil, errors.New("app: Commit without a finalized block")
	}
	a.crashAt(CrashCommitBegin, res.height)
	if err := a.durable.wait(); err != nil {
		// The previous block's state may not be on disk: go on and a power
		// loss could lose more than one block; stop instead.
		panic(fmt.Sprintf("app: the disk sync of height %d: %v", res.height-1, err))
	}
	if err := a.persist(res); err != nil {
		a.values.Clear() // what is on disk is not known
		// The block is decided: a node that cannot store it must stop
		// rather than go on with a state that differs from its peers'.
		panic(fmt.Sprintf("app: commit height %d: %v", res.height, err))
	}
	a.height, a.time, a.appHash, a.lanes = res.height, res.time, res.appHash, res.lanes
	a.snap.Discard()
	if a.durable.landed() != nil {
		// Pipelined: badger makes the block's entries visible one by one,
		// so until they have all landed the committed state is the block's
		// own writes over the version before.
		a.top = a.committedOverlays(res)
		for _, o := range a.top {
			o.Seal()
		}
		a.snap = a.db.NewTransactionAt(uint64(res.height-1), false)
	} else {
		a.top = nil
		a.snap = a.db.NewTransactionAt(store.Latest, false)
	}
	a.discardVersions()
	a.genesis, a.pending, a.proposals = nil, nil, nil
	if err := a.refreshChain(); err != nil {
		panic(fmt.Sprintf("app: the rules in force after height %d: %v", res.height, err))
	}
	a.resetCheck()
	a.publish()
	a.crashAt(CrashCommitEnd, res.height)
	a.maybeSnapshot()
	return &abcitypes.ResponseCommit{RetainHeight: a.retainHeight()}, nil
}

// persist is the one badger transaction of a block: InitChain's writes at
// the first block, the block's, and the meta. The value cache follows it
// to the new height.
func (a *App) persist(res *blockResult) error {
	overlays := a.committedOverlays(res)
	first := a.firstHeight.Load()
	if a.genesis != nil {
		first = res.height
	}
	meta := &subnetv1.Meta{Height: res.height, Time: res.time, AppHash: res.appHash, Lanes: res.lanes.Encode(), FirstHeight: first}
	if a.durable.mode == DurablePipelined {
		if err := store.PersistAsync(a.db, overlays, meta, a.durable.begin()); err != nil {
			a.durable.abandon()
			return err
		}
	} else if err := store.Persist(a.db, overlays, meta); err != nil {
		return err
	}
	a.values.Commit(a.height, res.height, overlays...)
	a.firstHeight.Store(first)
	return nil
}

// committedOverlays are the writes Commit stores for res: InitChain's
// under the first block's, else the block's.
func (a *App) committedOverlays(res *blockResult) []*store.Overlay {
	if a.genesis != nil {
		return []*store.Overlay{a.genesis, res.overlay, res.tree}
	}
	return []*store.Overlay{res.overlay, res.tree}
}
