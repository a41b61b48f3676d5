package app

import (
	"crypto/ed25519"
	"fmt"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"
)

// validate is the one validity function of CheckTx, PrepareProposal,
// ProcessProposal and FinalizeBlock, without the signature (deliverTx
// verifies it after these cheap checks): size, decoding, canonical form,
// sender, chain id, nonce, then the message's role, fields, references and
// deadlines against env's state (checked by the unit the route table
// gives the message, route.go). It never writes.
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
	return tx, checkMsg(env, tx)
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
