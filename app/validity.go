package app

import (
	"crypto/ed25519"
	"fmt"

	"github.com/scoringsubnet/validatord/app/gas"
	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/tasks"
	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// validate is the one validity function of CheckTx, PrepareProposal,
// ProcessProposal and FinalizeBlock, without the signature (deliverTx
// verifies it after these cheap checks): size, decoding, canonical form,
// sender, chain id, nonce, then the message's role, fields, references and
// deadlines against env's state (checked by the track unit that owns the
// message). It never writes.
func (a *App) validate(env kernel.Env, raw []byte) (*kernel.Tx, *wire.TxError) {
	if max := env.Chain.Gen.Chain.MaxTxBytes; int64(len(raw)) > max {
		return nil, wire.Reject(wire.CodeTxTooLarge, fmt.Sprintf("tx has %d bytes, max_tx_bytes is %d", len(raw), max))
	}
	d, terr := wire.DecodeTx(raw)
	if terr != nil {
		return nil, terr
	}
	tx := &kernel.Tx{DecodedTx: d, Validator: -1}
	if terr := a.checkEnvelope(env, tx); terr != nil {
		return nil, terr
	}
	return tx, a.checkMsg(env, tx)
}

// checkEnvelope checks sender, chain id and nonce.
func (a *App) checkEnvelope(env kernel.Env, tx *kernel.Tx) *wire.TxError {
	b := &tx.Body
	if len(b.Sender) != ed25519.PublicKeySize {
		return wire.Reject(wire.CodeBadSender, fmt.Sprintf("sender has %d bytes, want %d", len(b.Sender), ed25519.PublicKeySize))
	}
	if b.ChainId != env.Chain.ID {
		return wire.Reject(wire.CodeWrongChainID, fmt.Sprintf("chain_id = %q, this chain is %q", b.ChainId, env.Chain.ID))
	}
	tx.Account = env.St.Account(b.Sender)
	if b.Nonce < tx.Account.NextNonce {
		return wire.Reject(wire.CodeNonceUsed, fmt.Sprintf("nonce = %d already used (next nonce %d)", b.Nonce, tx.Account.NextNonce))
	}
	if b.Nonce > tx.Account.NextNonce {
		return wire.Reject(wire.CodeNonceFuture, fmt.Sprintf("nonce = %d, next nonce is %d", b.Nonce, tx.Account.NextNonce))
	}
	tx.Validator = env.Chain.ValidatorIndex(b.Sender)
	return nil
}

// checkMsg routes the message to its unit: membership (RegisterMiner) here,
// tasks (PostTask, Commit to a task, workflow and arena Reveal, Report) and
// gas (Commit to an EVM block, gas Reveal, Truth). A Commit or Reveal is
// first checked to come from a miner.
func (a *App) checkMsg(env kernel.Env, tx *kernel.Tx) *wire.TxError {
	if tx.Body.Msg == nil {
		return wire.Reject(wire.CodeEmptyMsg, "msg is missing")
	}
	switch m := tx.Body.Msg.Sum.(type) {
	case *subnetv1.Msg_RegisterMiner:
		if terr := a.registrationMode(false, "register_miner"); terr != nil {
			return terr
		}
		return a.checkRegister(env, tx)
	case *subnetv1.Msg_AttestMetagraph:
		return a.checkAttest(env, tx, m.AttestMetagraph)
	case *subnetv1.Msg_BindHotkey:
		return a.checkBind(env, tx, m.BindHotkey)
	case *subnetv1.Msg_DeregisterMiner:
		if terr := a.registrationMode(false, "deregister_miner"); terr != nil {
			return terr
		}
		if !tx.Account.Miner {
			return wire.Reject(wire.CodeNotMiner, fmt.Sprintf("deregister: sender %x is not a registered miner", tx.Body.Sender))
		}
		return nil
	case *subnetv1.Msg_ValidatorProposal, *subnetv1.Msg_ParamsProposal:
		return a.checkProposal(env, tx)
	case *subnetv1.Msg_ApproveProposal:
		return a.checkApprove(env, tx)
	case *subnetv1.Msg_PostTask, *subnetv1.Msg_Report:
		return tasks.Check(env, tx)
	case *subnetv1.Msg_Truth:
		return gas.Check(env, tx)
	case *subnetv1.Msg_Commit:
		if !tx.Account.Miner {
			return wire.Reject(wire.CodeNotMiner, fmt.Sprintf("commit: sender %x is not a registered miner", tx.Body.Sender))
		}
		if m.Commit == nil {
			return wire.Reject(wire.CodeEmptyMsg, "commit is empty")
		}
		switch m.Commit.Target.(type) {
		case *subnetv1.MsgCommit_TaskId:
			return tasks.Check(env, tx)
		case *subnetv1.MsgCommit_Gas:
			return gas.Check(env, tx)
		}
		return wire.Reject(wire.CodeEmptyMsg, "commit has no target (task_id or gas)")
	case *subnetv1.Msg_Reveal:
		if !tx.Account.Miner {
			return wire.Reject(wire.CodeNotMiner, fmt.Sprintf("reveal: sender %x is not a registered miner", tx.Body.Sender))
		}
		if m.Reveal == nil || m.Reveal.Submit == nil {
			return wire.Reject(wire.CodeEmptyMsg, "reveal has no submit")
		}
		switch m.Reveal.Submit.Kind.(type) {
		case *subnetv1.MsgSubmit_Workflow, *subnetv1.MsgSubmit_Arena:
			return tasks.Check(env, tx)
		case *subnetv1.MsgSubmit_Gas:
			return gas.Check(env, tx)
		}
		return wire.Reject(wire.CodeEmptyMsg, "reveal.submit has no content")
	}
	return wire.Reject(wire.CodeEmptyMsg, "msg has no content")
}
