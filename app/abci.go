package app

import (
	"context"
	"fmt"

	"github.com/scoringsubnet/validatord/app/commitment"
	"github.com/scoringsubnet/validatord/app/governance"
	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/membership"
	"github.com/scoringsubnet/validatord/app/mirror"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/x/budget"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Info returns the committed height and app hash, so that CometBFT replays
// exactly the blocks the app lacks.
func (a *App) Info(context.Context, *abcitypes.RequestInfo) (*abcitypes.ResponseInfo, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return &abcitypes.ResponseInfo{Data: "validatord", Version: Version, AppVersion: AppVersion,
		LastBlockHeight: a.height, LastBlockAppHash: a.appHash}, nil
}

// InitChain validates the app state and the validator set before anything
// is written, then stages the genesis state (committed with the first block).
func (a *App) InitChain(_ context.Context, req *abcitypes.RequestInitChain) (*abcitypes.ResponseInitChain, error) {
	a.lockAll()
	defer a.unlockAll()
	if a.height > 0 {
		return nil, fmt.Errorf("app: InitChain at committed height %d", a.height)
	}
	if req.ChainId == "" {
		return nil, fmt.Errorf("app: InitChain: empty chain id")
	}
	gen, err := genesis.Decode(req.AppStateBytes)
	if err != nil {
		return nil, err
	}
	if cp := req.ConsensusParams; cp != nil && cp.Block != nil {
		if err := genesis.CheckConsensusParams(cp.Block.MaxBytes, cp.Block.MaxGas); err != nil {
			return nil, fmt.Errorf("app: %w", err)
		}
	}
	cons := make([]genesis.ConsensusValidator, len(req.Validators))
	for i, v := range req.Validators {
		cons[i] = genesis.ConsensusValidator{PubKey: v.PubKey.GetEd25519(), Power: v.Power}
	}
	if err := gen.MatchValidators(cons); err != nil {
		return nil, fmt.Errorf("app: %w", err)
	}
	if _, err := kernel.NewChain(req.ChainId, gen); err != nil {
		return nil, err
	}
	snap := store.Snapshot{Txn: a.snap}
	ov := store.NewOverlay(snap)
	ov.Set(store.KeyGenesis, append([]byte(nil), req.AppStateBytes...))
	ov.Set(store.KeyChainID, []byte(req.ChainId))
	genHash, err := GenesisHash(req)
	if err != nil {
		return nil, err
	}
	ov.Set(store.KeyGenesisHash, genHash)
	store.State{O: ov}.Save(store.KeyCounters, &subnetv1.Counters{})
	a.genesis = ov
	a.initialHeight = max(req.InitialHeight, 1)
	membership.Init(store.State{O: ov}, gen, a.initialHeight, req.AppStateBytes)
	if err := governance.Init(store.State{O: ov}, gen, a.initialHeight); err != nil {
		return nil, err
	}
	if err := a.refreshChain(); err != nil {
		return nil, err
	}
	mirror.Init(store.State{O: ov}, gen)
	a.time = req.Time.Unix() // CheckTx's block time until the first block commits
	a.publish()
	changes := commitment.Assign(ov)
	a.genesisLanes = store.ApplyOverlay(a.lanes, ov, snap)
	commitment.Update(ov, changes) // the nodes, after the LtHash: outside it
	a.pending, a.proposals = nil, nil
	a.resetCheck()
	return &abcitypes.ResponseInitChain{AppHash: commitment.StateAppHash(ov, a.genesisLanes.Sum())}, nil
}

// CheckTx validates against the check state, which starts from the
// committed state at every Commit and applies each accepted transaction, so
// one sender can have several transactions in the mempool. It holds only
// checkMu, so a proposal being executed does not hold it up. It is
// CheckTxs with a run of one, which is never batched.
func (a *App) CheckTx(ctx context.Context, req *abcitypes.RequestCheckTx) (*abcitypes.ResponseCheckTx, error) {
	res, err := a.CheckTxs(ctx, []*abcitypes.RequestCheckTx{req})
	if err != nil {
		return nil, err
	}
	return res[0], nil
}

// PrepareProposal keeps, in order, the transactions that are valid after
// the ones before them and fit in req.MaxTxBytes.
func (a *App) PrepareProposal(_ context.Context, req *abcitypes.RequestPrepareProposal) (*abcitypes.ResponsePrepareProposal, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.chain == nil {
		return nil, errNotInitialised
	}
	base, _ := a.base()
	bo := store.NewOverlay(base)
	chain, err := a.chains.At(store.State{O: bo}, a.chain.ID, req.Height)
	if err != nil {
		return nil, err
	}
	blk := &kernel.Block{Height: req.Height, Time: req.Time.Unix(), Chain: chain}
	m := budget.NewMeter(a.limits, bo)
	var kept [][]byte
	var total int64
	for _, tx := range req.Txs {
		if total+int64(len(tx)) > req.MaxTxBytes {
			continue
		}
		if a.deliverTx(bo, tx, blk, m).Code != wire.CodeOK {
			continue
		}
		kept = append(kept, tx)
		total += int64(len(tx))
	}
	return &abcitypes.ResponsePrepareProposal{Txs: kept}, nil
}

// ProcessProposal executes the block as FinalizeBlock would and rejects it
// if any transaction is invalid; an accepted result is kept for FinalizeBlock.
func (a *App) ProcessProposal(_ context.Context, req *abcitypes.RequestProcessProposal) (*abcitypes.ResponseProcessProposal, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.chain == nil {
		return nil, errNotInitialised
	}
	res := a.executeBlock(req.Height, req.Time.Unix(), req.Hash, req.Txs, req.Misbehavior, true)
	if res.rejected > 0 {
		return &abcitypes.ResponseProcessProposal{Status: abcitypes.ResponseProcessProposal_REJECT}, nil
	}
	if a.proposals == nil {
		a.proposals = make(map[string]*blockResult)
	}
	a.proposals[string(req.Hash)] = res
	return &abcitypes.ResponseProcessProposal{Status: abcitypes.ResponseProcessProposal_ACCEPT}, nil
}

// FinalizeBlock executes the decided block into an overlay (or takes the
// identical result of ProcessProposal) and returns the app hash; nothing is
// persisted until Commit.
func (a *App) FinalizeBlock(_ context.Context, req *abcitypes.RequestFinalizeBlock) (*abcitypes.ResponseFinalizeBlock, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.chain == nil {
		return nil, errNotInitialised
	}
	a.crashAt(CrashFinalizeBegin, req.Height)
	res, ok := a.proposals[string(req.Hash)]
	if !ok || len(req.Hash) == 0 || res.height != req.Height {
		res = a.executeBlock(req.Height, req.Time.Unix(), req.Hash, req.Txs, req.Misbehavior, false)
	}
	a.pending = res
	a.crashAt(CrashFinalizeEnd, req.Height)
	return &abcitypes.ResponseFinalizeBlock{TxResults: res.txResults, Events: res.events, AppHash: res.appHash,
		ValidatorUpdates: res.updates}, nil
}

// nextHeight is the height of the next block, which CheckTx validates
// against: the committed height + 1, or InitChain's initial height before
// the first commit (CometBFT may start a chain above height 1).
func (a *App) nextHeight() int64 {
	if a.height == 0 && a.initialHeight > 1 {
		return a.initialHeight
	}
	return a.height + 1
}
