package app

import (
	"runtime"

	"github.com/scoringsubnet/validatord/app/sigverify"
	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
)

// sigCheck is a transaction's signature check made before its turn.
type sigCheck int8

const (
	sigUnknown sigCheck = 0 // not checked ahead: deliverTx verifies it (or finds it in the cache)
	sigValid   sigCheck = 1
	sigInvalid sigCheck = -1
)

// sigItem is the signature check a raw tx carries, with the tx's hash (the
// signature cache's key); ok is false for bytes that do not decode, which
// deliverTx refuses itself.
func sigItem(raw []byte) (it sigverify.Item, hash [32]byte, ok bool) {
	var tx subnetv1.Tx
	var body subnetv1.TxBody
	if tx.Unmarshal(raw) != nil || body.Unmarshal(tx.Body) != nil {
		return it, hash, false
	}
	return sigverify.Item{PubKey: body.Sender, Msg: wire.SignBytes(tx.Body), Sig: tx.Signature}, txHash(raw), true
}

// presigs are a block's signatures being checked ahead.
type presigs struct {
	cached []bool // the tx's signature is in the CheckTx cache
	at     []int  // the tx's item in checks, or -1
	checks *sigverify.Checks
}

// get returns the check of tx i as a function deliverTx calls at the tx's
// turn, after its cheap checks and budget charge: it waits for the tx's
// batch if that is still being verified.
func (p *presigs) get(i int) func() sigCheck {
	return func() sigCheck {
		switch {
		case p.cached[i]:
			return sigValid
		case p.at[i] < 0:
			return sigUnknown
		case p.checks.Valid(p.at[i]):
			return sigValid
		default:
			return sigInvalid
		}
	}
}

// close stops the batches not started (a block rejected early needs no
// more) and waits for the running ones.
func (p *presigs) close() { p.checks.Close() }

// preverify starts checking, in the background on every core
// (app/sigverify, batches in block order), the signatures of the block's
// transactions that CheckTx did not already verify: a pure function of the
// bytes, so each tx's result is the one deliverTx would compute itself,
// and deliverTx still applies it only at the tx's turn, after the cheap
// checks and the budget charge; block execution runs beside the
// verification of later batches. At most as many transactions as the
// block's work budget can pay UnitsTx for are checked (the rest could only
// be refused as block_full), so a block makes a node verify no more
// signatures than before, only sooner and in parallel. A tx that does not
// decode is left to deliverTx.
func (a *App) preverify(height int64, txs [][]byte) *presigs {
	a.takeAhead(height)
	p := &presigs{cached: make([]bool, len(txs)), at: make([]int, len(txs))}
	limit := min(len(txs), int(a.limits.TxWork/budget.UnitsTx)+1)
	var items []sigverify.Item
	for i := range txs {
		p.at[i] = -1
		if i >= limit {
			continue
		}
		it, h, ok := sigItem(txs[i])
		if !ok {
			continue
		}
		if a.sigs.known(h) {
			p.cached[i] = true
			continue
		}
		p.at[i] = len(items)
		items = append(items, it)
	}
	p.checks = sigverify.Start(items, runtime.GOMAXPROCS(0))
	return p
}

// ahead is a later block's signatures being checked in the background
// (Prefetch): the valid ones go to the signature cache before the next
// block's execution looks there.
type ahead struct {
	height int64 // the block the transactions are in
	checks *sigverify.Checks
	hashes [][32]byte // per item, its tx's hash
}

// Prefetch starts checking, on every core in the background, the
// signatures of transactions the app will execute in a later block — what
// replay knows while it runs the block before: that block's verification
// then overlaps this one's execution and commit. It changes no result: the
// next block's execution first waits for these checks and puts the valid
// signatures in the signature cache (validity is a pure function of the
// bytes), and anything not found there is verified as usual. height is the
// block the transactions are in: blocks below it leave the work running.
// Calling it again replaces the earlier call's work.
func (a *App) Prefetch(height int64, txs [][]byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ahead != nil {
		a.ahead.checks.Close()
	}
	next := &ahead{height: height}
	var items []sigverify.Item
	for _, raw := range txs {
		it, h, ok := sigItem(raw)
		if !ok || a.sigs.known(h) {
			continue
		}
		items = append(items, it)
		next.hashes = append(next.hashes, h)
	}
	next.checks = sigverify.Start(items, runtime.GOMAXPROCS(0))
	a.ahead = next
}

// takeAhead, before the execution of the block at height, waits for a
// Prefetch of that block (or an earlier one) and caches its valid
// signatures; a prefetch of a later block keeps running. Called with a.mu
// held.
func (a *App) takeAhead(height int64) {
	if a.ahead == nil || a.ahead.height > height {
		return
	}
	for i, h := range a.ahead.hashes {
		if a.ahead.checks.Valid(i) {
			a.sigs.remember(h)
		}
	}
	a.ahead.checks.Close()
	a.ahead = nil
}
