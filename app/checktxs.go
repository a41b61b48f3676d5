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

// suspectGeneration bounds each generation of the suspects' set: at most
// 2 × suspectGeneration sender keys are held (32 bytes each).
const suspectGeneration = 4096

// suspects are the senders whose signature was found bad after a batch of
// CheckTxs failed: their transactions are kept out of later batches and
// verified one at a time, so a sender who keeps sending bad signatures
// costs only its own transactions the batch's speed. Two generations, as
// sigverify's expanded keys: a key stays suspect for at least
// suspectGeneration later suspects. The set changes speed, never a result.
type suspects struct {
	cur, old map[[32]byte]struct{}
}

func (s *suspects) has(pub []byte) bool {
	if len(pub) != len([32]byte{}) {
		return false
	}
	k := [32]byte(pub)
	if _, ok := s.cur[k]; ok {
		return true
	}
	_, ok := s.old[k]
	return ok
}

func (s *suspects) add(pub []byte) {
	if s.has(pub) {
		return
	}
	if s.cur == nil || len(s.cur) >= suspectGeneration {
		s.old, s.cur = s.cur, make(map[[32]byte]struct{})
	}
	s.cur[[32]byte(pub)] = struct{}{}
}

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
// signature is bad: its signatures are then verified one at a time at
// once (what each transaction would have cost without the batch), each
// transaction takes its own result at its turn, and the senders of the bad
// ones become suspects, kept out of every later batch. So a sender's bad
// signature costs this node one batch over the one-at-a-time check, once
// per sender key (each an expanded key: one that has verified before, a
// registered miner's or a validator's), and never turns batching off for
// the other senders (TestCheckTxsBadSignatureSender).
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
	pres := a.checkBatch(reqs)
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
		if c := pres[i]; c != sigUnknown {
			pre = func() sigCheck { return c }
		}
		r := a.deliverTxPre(a.check, req.Tx, blk, budget.NewMeter(a.limits, a.check), pre)
		out[i] = checkTxResponse(store.State{O: a.check}, req.Tx, r)
	}
	return out, nil
}

// checkBatch checks in one batch the signatures of the run's transactions
// that qualify (see CheckTxs) and returns, per request, its signature's
// check when the batch decided it (sigUnknown otherwise): all valid when
// the batch holds, and each verified alone when it fails, the senders of
// the bad ones becoming suspects. Called with checkMu held.
func (a *App) checkBatch(reqs []*abcitypes.RequestCheckTx) []sigCheck {
	pres := make([]sigCheck, len(reqs))
	a.checkStats.Runs++
	if len(reqs) < sigverify.MinBatch {
		return pres // CheckTx's one request, or a run too short to batch: nothing decoded twice
	}
	var items []sigverify.Item
	var at []int
	for i, req := range reqs {
		if len(items) == checkRunMax {
			break
		}
		it, h, ok := sigItem(req.Tx)
		if !ok || !sigverify.Expanded(it.PubKey) || a.suspects.has(it.PubKey) || a.sigs.known(h) {
			continue
		}
		items = append(items, it)
		at = append(at, i)
	}
	if len(items) < sigverify.MinBatch {
		return pres
	}
	a.checkStats.Batches++
	a.checkStats.Batched += len(items)
	if sigverify.AllValid(items) {
		for _, i := range at {
			pres[i] = sigValid
		}
		return pres
	}
	a.checkStats.Failed++
	for k, i := range at {
		if sigverify.Valid(items[k]) {
			pres[i] = sigValid
			continue
		}
		pres[i] = sigInvalid
		if !a.suspects.has(items[k].PubKey) {
			a.suspects.add(items[k].PubKey)
			a.checkStats.Suspects++
		}
	}
	return pres
}

// CheckRunStats counts what CheckTxs did since the app started: runs
// answered, batches checked, signatures in them, batches that failed, the
// senders those made suspects, and
// the transactions answered: first checks and the mempool's rechecks after
// each block (a recheck's signature is known, its execution is not).
type CheckRunStats struct {
	Runs, Batches, Batched, Failed, Suspects int
	Checks, Rechecks                         int
}

// CheckRuns returns the counts of CheckTxs's runs (for tests and the
// benchmarks' reports; no consensus value depends on them).
func (a *App) CheckRuns() CheckRunStats {
	a.checkMu.Lock()
	defer a.checkMu.Unlock()
	return a.checkStats
}
