package app

import (
	"fmt"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/commitment"
	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/x/budget"
)

// blockResult is one block executed into an overlay, awaiting Commit.
type blockResult struct {
	height    int64
	time      int64
	overlay   *store.Overlay
	tree      *store.Overlay // the record trees' nodes (outside the LtHash), over overlay
	records   int            // provable records the block changed
	nodes     int            // tree nodes it wrote
	lanes     store.Lanes
	appHash   []byte
	txResults []*abcitypes.ExecTxResult
	events    []abcitypes.Event
	rejected  int
	carried   []string // end-of-block steps that carried work to the next block
	written   int      // counted bytes of the block's writes
	txWork    int64    // units its transactions charged
	endWork   int64    // units its end of block charged
	starved   bool     // the last-line guard ran the end of block starved
	updates   []abcitypes.ValidatorUpdate
}

// sizeFunc adapts a function to budget.Sizer.
type sizeFunc func() int

func (f sizeFunc) Size() int { return f() }

// keysPerTx sizes a block overlay's maps: a commit or reveal writes and
// reads about this many keys (account, submission, task, task indexes).
const keysPerTx = 6

// executeBlock runs the block's transactions in order, each validated
// against the state left by the ones before it and applied through its own
// overlay (a rejected transaction leaves nothing behind, not even its
// nonce), then the end of block, then the app hash over the full state.
// With stopAtReject it stops at the first rejected transaction (the result
// is then only good for counting the rejection).
func (a *App) executeBlock(height, time int64, hash []byte, txs [][]byte, evidence []abcitypes.Misbehavior, stopAtReject bool) *blockResult {
	base, baseLanes := a.base()
	var cached *store.CachedReader
	if a.genesis == nil { // committed state: read through the value cache
		cached = a.values.Reader(base, a.height)
		base = cached
	}
	bo := store.NewBlockOverlay(base, keysPerTx*len(txs))
	var eo *store.Overlay // the end of block's writes, over the transactions'
	chain, err := a.chains.At(store.State{O: bo}, a.chain.ID, height)
	if err != nil {
		// The rules in force are state every node holds alike; a node that
		// cannot read them cannot execute the block.
		panic(fmt.Sprintf("app: the rules in force at height %d: %v", height, err))
	}
	blk := &kernel.Block{Height: height, Time: time, Hash: hash, Chain: chain, Misbehavior: evidence}
	m := budget.NewMeter(a.limits, sizeFunc(func() int {
		if eo == nil {
			return bo.Size()
		}
		return bo.Size() + eo.Size()
	}))
	res := &blockResult{height: height, time: time, overlay: bo, txResults: make([]*abcitypes.ExecTxResult, len(txs))}
	pre := a.preverify(height, txs)
	defer pre.close()
	for i, raw := range txs {
		res.txResults[i] = a.deliverTxPre(bo, raw, blk, m, pre.get(i))
		if res.txResults[i].Code != wire.CodeOK {
			res.rejected++
			if stopAtReject {
				return res // ProcessProposal rejects the block: nothing more to compute
			}
		}
	}
	eo = store.NewOverlay(bo)
	res.events, res.carried = endBlock(a.env(eo, blk), m)
	if bo.Size()+eo.Size() > a.limits.CommitWrites {
		// The last line: a broken bound (tests catch it), never a Commit
		// that fails on every node. Every node computes the same sizes, so
		// every node takes this branch: the end of block runs again, starved
		// (only an epoch, bounded by genesis), and its work stays queued.
		a.logger.Error("end of block would exceed one badger transaction; ran it starved", "height", height,
			"bytes", bo.Size()+eo.Size(), "limit", a.limits.CommitWrites)
		eo = store.NewOverlay(bo)
		m.Starve()
		res.events, res.carried = endBlock(a.env(eo, blk), m)
		res.starved = true
	}
	eo.MergeInto(bo)
	res.updates = blk.Updates
	res.written, res.txWork, res.endWork = bo.Size(), m.TxWork(), m.EndWork()
	changes := commitment.Assign(bo) // the new records' slots are state: before the LtHash
	if cached != nil {
		cached.Freeze() // ApplyBlock reads the base on every core
	}
	res.lanes = store.ApplyBlock(baseLanes, bo)
	res.tree = store.NewOverlay(bo)
	res.records, res.nodes = changes.Len(), commitment.Update(res.tree, changes)
	res.appHash = commitment.StateAppHash(res.tree, res.lanes.Sum())
	return res
}

// env is the track units' view of the overlay o in block blk.
func (a *App) env(o *store.Overlay, blk *kernel.Block) kernel.Env {
	return kernel.Env{Chain: blk.Chain, St: store.State{O: o}, Block: blk}
}

// deliverTx validates and applies one transaction inside bo. The cheap
// checks come first (size, decoding, envelope, role, fields, references);
// then, in a block, the transaction's units are charged before its
// signature is verified, so a block can make a node verify no more
// signatures than its work budget pays for (a message's own signature too:
// a binding's sr25519; and a batch's entries: msgUnits); then the signature, then the message's
// (verifyMsg); then
// execution, whose writes and own work (an EVM block close) must still fit
// the block's budgets. In CheckTx a transaction that could fit no block is
// refused instead.
func (a *App) deliverTx(bo *store.Overlay, raw []byte, blk *kernel.Block, m *budget.Meter) *abcitypes.ExecTxResult {
	return a.deliverTxPre(bo, raw, blk, m, nil)
}

// deliverTxPre is deliverTx with the signature's check made ahead, when
// pre gives it (preverify; it may wait for the check to finish).
func (a *App) deliverTxPre(bo *store.Overlay, raw []byte, blk *kernel.Block, m *budget.Meter, pre func() sigCheck) *abcitypes.ExecTxResult {
	to := store.NewOverlay(bo)
	env := a.env(to, blk)
	tx, terr := a.validate(env, raw)
	if terr != nil {
		return txResult(terr)
	}
	units := budget.UnitsTx + msgUnits(tx)
	if blk.Mempool && !m.TxWorkAlone(units) {
		return txResult(wire.Reject(wire.CodeBlockFull, fmt.Sprintf("the transaction's %d units of work are more than a block's %d; no block can include it (send fewer entries)", units, m.Limits().TxWork)))
	}
	if !blk.Mempool && !m.ChargeTx(units) {
		return txResult(wire.Reject(wire.CodeBlockFull, "the block's work budget is spent; send the transaction again"))
	}
	hash := txHash(raw)
	check := sigUnknown
	if pre != nil {
		check = pre()
	}
	if ok := check == sigValid || (check == sigUnknown && a.sigs.verify(hash, tx.Body.Sender, tx.Tx.Body, tx.Tx.Signature)); !ok {
		return txResult(wire.Reject(wire.CodeBadSignature, wire.BadSignatureLog))
	}
	if terr := verifyMsg(env, tx); terr != nil {
		return txResult(terr)
	}
	var work int64
	env.Charge = func(u int64) { work += u }
	evs := execute(env, tx)
	if blk.Mempool {
		if !m.TxAlone(to.Size()) {
			return txResult(wire.Reject(wire.CodeBlockFull, "the transaction alone writes more than a block may; no block can include it"))
		}
		a.sigs.remember(hash)
	} else if !m.TxFits(to.Size()) || !m.ChargeTx(work) {
		return txResult(wire.Reject(wire.CodeBlockFull, "the block's write or work budget is spent; send the transaction again"))
	}
	to.MergeInto(bo)
	return &abcitypes.ExecTxResult{Code: wire.CodeOK, Events: evs}
}

func txResult(terr *wire.TxError) *abcitypes.ExecTxResult {
	return &abcitypes.ExecTxResult{Code: terr.Code, Log: terr.Error(), Codespace: wire.Codespace}
}
