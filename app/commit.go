package app

import (
	"context"
	"errors"
	"fmt"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/dgraph-io/badger/v4"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Commit writes the finalized block's changes (with InitChain's, at the
// first block), the height, the app hash and the hash lanes in ONE badger
// transaction with synchronous writes, then moves the committed view.
func (a *App) Commit(context.Context, *abcitypes.RequestCommit) (*abcitypes.ResponseCommit, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	res := a.pending
	if res == nil {
		return nil, errors.New("app: Commit without a finalized block")
	}
	a.crashAt(CrashCommitBegin, res.height)
	if err := a.persist(res); err != nil {
		// The block is decided: a node that cannot store it must stop
		// rather than go on with a state that differs from its peers'.
		panic(fmt.Sprintf("app: commit height %d: %v", res.height, err))
	}
	a.height, a.appHash, a.lanes = res.height, res.appHash, res.lanes
	a.snap.Discard()
	a.snap = a.db.NewTransaction(false)
	a.genesis, a.pending, a.proposals = nil, nil, nil
	a.resetCheck()
	a.crashAt(CrashCommitEnd, res.height)
	return &abcitypes.ResponseCommit{}, nil
}

// persist is the one badger transaction of a block.
func (a *App) persist(res *blockResult) error {
	txn := a.db.NewTransaction(true)
	defer txn.Discard()
	if a.genesis != nil {
		if err := writeOverlay(txn, a.genesis); err != nil {
			return err
		}
	}
	if err := writeOverlay(txn, res.overlay); err != nil {
		return err
	}
	meta := &subnetv1.Meta{Height: res.height, AppHash: res.appHash, Lanes: res.lanes.encode()}
	bz, err := meta.Marshal()
	if err != nil {
		return err
	}
	if err := txn.Set(keyMeta, bz); err != nil {
		return err
	}
	return txn.Commit()
}

func writeOverlay(txn *badger.Txn, o *overlay) error {
	for _, k := range o.sortedKeys() {
		e := o.writes[k]
		var err error
		if e.del {
			err = txn.Delete([]byte(k))
		} else {
			err = txn.Set([]byte(k), e.val)
		}
		if err != nil {
			return fmt.Errorf("write %x: %w", k, err)
		}
	}
	return nil
}
