package app

import (
	"crypto/ed25519"
	"fmt"

	"github.com/scoringsubnet/validatord/app/wire"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// blockCtx is the block a transaction is validated and executed in: height
// and time (unix seconds) come from the request, never from the clock.
type blockCtx struct {
	height int64
	time   int64
	// mempool is set for CheckTx: verified signatures are remembered.
	mempool bool
}

// checkedTx is a transaction that passed validity, with what was looked up.
type checkedTx struct {
	*wire.DecodedTx
	account   *subnetv1.Account
	validator int // index of the signing validator, or -1
}

// validate is the one validity function of CheckTx, PrepareProposal,
// ProcessProposal and FinalizeBlock: size, decoding, canonical form, chain
// id, nonce, signature, then the message's role, fields, references and
// deadlines against st. It never writes.
func (a *App) validate(st state, raw []byte, bc blockCtx) (*checkedTx, *wire.TxError) {
	c := a.chain
	if int64(len(raw)) > c.gen.Chain.MaxTxBytes {
		return nil, wire.Reject(wire.CodeTxTooLarge, fmt.Sprintf("tx has %d bytes, max_tx_bytes is %d", len(raw), c.gen.Chain.MaxTxBytes))
	}
	d, terr := wire.DecodeTx(raw)
	if terr != nil {
		return nil, terr
	}
	ct := &checkedTx{DecodedTx: d, validator: -1}
	if terr := a.checkEnvelope(st, ct, raw, bc.mempool); terr != nil {
		return nil, terr
	}
	return ct, a.checkMsg(st, ct, bc)
}

// checkEnvelope checks sender, chain id, nonce and signature (the costly
// check last).
func (a *App) checkEnvelope(st state, ct *checkedTx, raw []byte, mempool bool) *wire.TxError {
	b := &ct.Body
	if len(b.Sender) != ed25519.PublicKeySize {
		return wire.Reject(wire.CodeBadSender, fmt.Sprintf("sender has %d bytes, want %d", len(b.Sender), ed25519.PublicKeySize))
	}
	if b.ChainId != a.chain.chainID {
		return wire.Reject(wire.CodeWrongChainID, fmt.Sprintf("chain_id = %q, this chain is %q", b.ChainId, a.chain.chainID))
	}
	ct.account = st.account(b.Sender)
	if b.Nonce < ct.account.NextNonce {
		return wire.Reject(wire.CodeNonceUsed, fmt.Sprintf("nonce = %d already used (next nonce %d)", b.Nonce, ct.account.NextNonce))
	}
	if b.Nonce > ct.account.NextNonce {
		return wire.Reject(wire.CodeNonceFuture, fmt.Sprintf("nonce = %d, next nonce is %d", b.Nonce, ct.account.NextNonce))
	}
	if !a.sigs.verify(txHash(raw), b.Sender, ct.Tx.Body, ct.Tx.Signature, mempool) {
		return wire.Reject(wire.CodeBadSignature, "signature does not verify for the sender over the body")
	}
	ct.validator = a.chain.validatorIndex(b.Sender)
	return nil
}

// checkMsg dispatches on the message.
func (a *App) checkMsg(st state, ct *checkedTx, bc blockCtx) *wire.TxError {
	if ct.Body.Msg == nil {
		return wire.Reject(wire.CodeEmptyMsg, "msg is missing")
	}
	switch m := ct.Body.Msg.Sum.(type) {
	case *subnetv1.Msg_RegisterMiner:
		return a.checkRegister(st, ct)
	case *subnetv1.Msg_PostTask:
		return a.checkPostTask(ct, m.PostTask)
	case *subnetv1.Msg_Submit:
		return a.checkSubmit(st, ct, m.Submit, bc)
	case *subnetv1.Msg_Report:
		return a.checkReport(st, ct, m.Report, bc)
	case *subnetv1.Msg_Truth:
		return a.checkTruth(st, ct, m.Truth)
	}
	return wire.Reject(wire.CodeEmptyMsg, "msg has no content")
}

func (a *App) requireValidator(ct *checkedTx, what string) *wire.TxError {
	if ct.validator < 0 {
		return wire.Reject(wire.CodeNotValidator, fmt.Sprintf("%s: sender %x is not a validator's report key", what, ct.Body.Sender))
	}
	return nil
}

func (a *App) requireTrack(track string) *wire.TxError {
	if !a.chain.gen.HasTrack(track) {
		return wire.Reject(wire.CodeTrackDisabled, fmt.Sprintf("track %q does not run on this chain", track))
	}
	return nil
}

func (a *App) checkRegister(st state, ct *checkedTx) *wire.TxError {
	if ct.validator >= 0 {
		return wire.Reject(wire.CodeValidatorKey, fmt.Sprintf("register: sender %x is validator %q's report key; a validator must not report on its own submissions",
			ct.Body.Sender, a.chain.gen.Validators[ct.validator].Name))
	}
	if ct.account.Miner {
		return wire.Reject(wire.CodeAlreadyMiner, fmt.Sprintf("sender already has uid %d", ct.account.Uid))
	}
	if n := st.counters().Miners; int(n) >= a.chain.gen.Chain.MaxUIDs {
		return wire.Reject(wire.CodeUIDsFull, fmt.Sprintf("all %d uids are taken", a.chain.gen.Chain.MaxUIDs))
	}
	return nil
}
