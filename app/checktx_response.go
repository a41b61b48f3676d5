package app

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
)

// checkTxResponse is CheckTx's answer for raw's result r, checked against
// the check state st. A nonce refusal also carries the sender's next nonce
// in Data (wire.EncodeNextNonce), read again from st: the refusal changed
// nothing, and the result r is FinalizeBlock's type, whose fields the chain
// hashes and so stay as they are.
func checkTxResponse(st store.State, raw []byte, r *abcitypes.ExecTxResult) *abcitypes.ResponseCheckTx {
	res := &abcitypes.ResponseCheckTx{Code: r.Code, Log: r.Log, Codespace: r.Codespace}
	if !wire.IsNonceCode(r.Code) {
		return res
	}
	if d, terr := wire.DecodeTx(raw); terr == nil {
		res.Data = wire.EncodeNextNonce(st.Account(d.Body.Sender).NextNonce)
	}
	return res
}
