package kernel

import (
	"errors"
	"fmt"

	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/commit"
)

// CommitParams is the commit-reveal parameters of the named track.
func (c *Chain) CommitParams(name string) commit.Params {
	t, _ := c.Gen.Track(name)
	return t.Commit()
}

// CheckCommitment: a commit's commitment is 32 bytes (code 47).
func CheckCommitment(b []byte) *wire.TxError {
	if len(b) != commit.Size {
		return wire.Reject(wire.CodeBadCommitment, fmt.Sprintf("commitment has %d bytes, want %d", len(b), commit.Size))
	}
	return nil
}

// CheckSalt: a reveal's salt is 32 bytes (code 47).
func CheckSalt(b []byte) *wire.TxError {
	if len(b) != commit.SaltSize {
		return wire.Reject(wire.CodeBadCommitment, fmt.Sprintf("salt has %d bytes, want %d", len(b), commit.SaltSize))
	}
	return nil
}

// CheckWindow: the reveal comes inside w (code 49); what names the target.
func (env Env) CheckWindow(w commit.Window, what string) *wire.TxError {
	h := env.Block.Height
	if h < w.First {
		return wire.Reject(wire.CodeRevealWindow, fmt.Sprintf("%s: reveals open at height %d (now %d)", what, w.First, h))
	}
	if h > w.Last {
		return wire.Reject(wire.CodeRevealWindow, fmt.Sprintf("%s: reveals closed at height %d (now %d)", what, w.Last, h))
	}
	return nil
}

// CheckOpens: the reveal's payload and salt open sub's commitment under this
// chain id, the sender and its uid (code 50). The payload is re-encoded:
// the transaction's body is canonical (code 3), so these are the bytes the
// miner hashed.
func (env Env) CheckOpens(tx *Tx, sub *subnetv1.Submission, payload *subnetv1.MsgSubmit, salt []byte) *wire.TxError {
	bz, err := payload.Marshal()
	if err != nil {
		panic("track: marshal of a decoded MsgSubmit: " + err.Error())
	}
	err = commit.Verify(sub.Commitment, env.Chain.ID, tx.Body.Sender, tx.Account.Uid, bz, salt)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, commit.ErrMismatch):
		return wire.Reject(wire.CodeRevealMismatch, fmt.Sprintf("payload and salt do not open the commitment of submission %d (chain %q, this sender, uid %d)",
			sub.Id, env.Chain.ID, tx.Account.Uid))
	}
	return wire.Reject(wire.CodeBadCommitment, err.Error())
}

// Attach makes r the receipt of sub. The receipt's commit section is not
// stored: the submission's own fields are it (x/receipt.CommitFields).
func Attach(sub *subnetv1.Submission, r *subnetv1.Receipt) {
	sub.Receipt = r
}
