package app

import (
	"context"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/sigverify"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/x/budget"
)

// checkRunMax bounds the signatures one run's batch checks.
const checkRunMax = 64

// checkCooldown is how many transactions after a failed batch CheckTxs
// leaves to the one-at-a-time check: a sender who slips one bad signature
// into a run costs this node that run's batch on top of the checks it
// would have made anyway, at most once per checkCooldown transactions.
const checkCooldown = 256

// CheckTxs answers a run of CheckTx requests, in order, exactly as CheckTx
// would one after the other: the same codes, logs and check state. The
// difference is cost: the run's signatures are checked first with one
// batch equation (app/sigverify.AllValid, about twice as fast per signature
// as one at a time in runs of 16), and each transaction then takes its
// result at its turn, after its cheap checks, as block execution does with
// preverify. A signature's validity is a pure function of the bytes, so
// the answers cannot differ (TestCheckTxsMatchesCheckTx).
//
// Only transactions whose signature CheckTx would otherwise verify are put
// in the batch, and only those whose sender's key is one the node already
// holds expanded (a key seen verifying before: a registered miner's), so
// a flood of txs from fresh keys that fail cheap checks costs no more than
// it does one at a time. A batch that fails says nothing of which
// signature is bad: the run's transactions then verify their own at their
// turn, and the next checkCooldown transactions skip the batch, so bad
// signatures cannot make this path cost more than that run's batch over
// the one-at-a-time check (TestCheckTxsBadSignatureCooldown).
//
// mempoolconn queues CometBFT's CheckTx requests and hands them here in
// runs; it holds checkMu for the whole run, as CheckTx does for one.
func (a *App) CheckTxs(_ context.Context, reqs []*abcitypes.RequestCheckTx) ([]*abcitypes.ResponseCheckTx, error) {
	a.checkMu.Lock()
	defer a.checkMu.Unlock()
	out := make([]*abcitypes.ResponseCheckTx, len(reqs))
	if a.chain == nil {
		for i := range out {
			out[i] = &abcitypes.ResponseCheckTx{Code: wire.CodeInternal, Log: errNotInitialised.Error(), Codespace: wire.Codespace}
		}
		return out, nil
	}
	batched := a.checkBatch(reqs)
	for _, req := range reqs {
		if req.Type == abcitypes.CheckTxType_Recheck {
			a.checkStats.Rechecks++
		} else {
			a.checkStats.Checks++
		}
	}
	blk := &kernel.Block{Height: a.nextHeight(), Time: a.time, Mempool: true, Chain: a.chain}
	for i, req := range reqs {
		var pre func() sigCheck
		if batched[i] {
			pre = func() sigCheck { return sigValid }
		}
		r := a.deliverTxPre(a.check, req.Tx, blk, budget.NewMeter(a.limits, a.check), pre)
		out[i] = checkTxResponse(store.State{O: a.check}, req.Tx, r)
	}
	return out, nil
}

// checkBatch checks in one batch the signatures of the run's transactions
// that qualify (see CheckTxs) and reports, per request, whether its
// signature is known valid from it. Called with checkMu held.
func (a *App) checkBatch(reqs []*abcitypes.RequestCheckTx) []bool {
	batched := make([]bool, len(reqs))
	a.checkStats.Runs++
	if a.checkCool > 0 {
		a.checkCool = max(0, a.checkCool-len(reqs))
		return batched
	}
	if len(reqs) < sigverify.MinBatch {
		return batched // CheckTx's one request, or a run too short to batch: nothing decoded twice
	}
	var items []sigverify.Item
	var at []int
	for i, req := range reqs {
		if len(items) == checkRunMax {
			break
		}
		it, h, ok := sigItem(req.Tx)
		if !ok || !sigverify.Expanded(it.PubKey) || a.sigs.known(h) {
			continue
		}
		items = append(items, it)
		at = append(at, i)
	}
	if len(items) < sigverify.MinBatch {
		return batched
	}
	a.checkStats.Batches++
	a.checkStats.Batched += len(items)
	if !sigverify.AllValid(items) {
		a.checkStats.Failed++
		a.checkCool = checkCooldown
		return batched
	}
	for _, i := range at {
		batched[i] = true
	}
	return batched
}

// CheckRunStats counts what CheckTxs did since the app started: runs
// answered, batches checked, signatures in them, batches that failed, and
// the transactions answered: first checks and the mempool's rechecks after
// each block (a recheck's signature is known, its execution is not).
type CheckRunStats struct {
	Runs, Batches, Batched, Failed int
	Checks, Rechecks               int
}

// CheckRuns returns the counts of CheckTxs's runs (for tests and the
// benchmarks' reports; no consensus value depends on them).
func (a *App) CheckRuns() CheckRunStats {
	a.checkMu.Lock()
	defer a.checkMu.Unlock()
	return a.checkStats
}
