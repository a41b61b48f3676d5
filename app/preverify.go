package app

import (
	"runtime"

	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
	"github.com/scoringsubnet/validatord/x/sigverify"
)

// sigCheck is a transaction's signature check made before its turn.
type sigCheck int8

const (
	sigUnknown sigCheck = 0 // not checked ahead: deliverTx verifies it (or finds it in the cache)
	sigValid   sigCheck = 1
	sigInvalid sigCheck = -1
)

// preverify checks, on every core, the signatures of the block's
// transactions that CheckTx did not already verify (x/sigverify): a pure
// function of the bytes, so each tx's result is the one deliverTx would
// compute itself, and deliverTx still applies it only at the tx's turn,
// after the cheap checks and the budget charge. At most as many
// transactions as the block's work budget can pay UnitsTx for are checked
// (the rest could only be refused as block_full), so a block makes a node
// verify no more signatures than before, only sooner and in parallel. A tx
// that does not decode is left to deliverTx.
func (a *App) preverify(txs [][]byte) []sigCheck {
	out := make([]sigCheck, len(txs))
	limit := min(len(txs), int(a.limits.TxWork/budget.UnitsTx)+1)
	var items []sigverify.Item
	var at []int
	for i := 0; i < limit; i++ {
		var tx subnetv1.Tx
		var body subnetv1.TxBody
		if tx.Unmarshal(txs[i]) != nil || body.Unmarshal(tx.Body) != nil {
			continue
		}
		if a.sigs.known(txHash(txs[i])) {
			out[i] = sigValid
			continue
		}
		items = append(items, sigverify.Item{PubKey: body.Sender, Msg: wire.SignBytes(tx.Body), Sig: tx.Signature})
		at = append(at, i)
	}
	for j, ok := range sigverify.Verify(items, runtime.GOMAXPROCS(0)) {
		out[at[j]] = sigInvalid
		if ok {
			out[at[j]] = sigValid
		}
	}
	return out
}
