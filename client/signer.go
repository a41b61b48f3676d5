package client

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Node is what a Signer needs of the chain. *Client is one; a set of clients
// that fails over from node to node (scripts/loadgen) is another.
type Node interface {
	NextNonce(ctx context.Context, pub ed25519.PublicKey) (uint64, error)
	Broadcast(ctx context.Context, tx []byte) (TxResult, error)
	WaitTx(ctx context.Context, hash string, timeout time.Duration) (TxResult, error)
}

// ErrNonceUnstable: the node refused the nonce as used or in the future
// again after the Signer re-read it; another sender is using the key.
var ErrNonceUnstable = errors.New("nonce kept changing")

// sendAttempts bounds the re-reads of the nonce in one Send.
const sendAttempts = 3

// Signer signs for one key and keeps its nonce: read from the node once
// (its pending nonce: NextNonce), then counted locally, and read again
// after a nonce error or a broadcast whose outcome is unknown. The app's
// CheckTx accepts an account's next nonces in order, so one key may have
// several transactions in the mempool.
//
// A transaction Send got accepted stays in the Signer's flight until it is
// seen in a block. When its node is a Tracker, one not in a block
// LostAfter blocks after it was sent counts as lost (its mempool was
// flushed, its node killed, or it was evicted behind a lost one): Recover,
// which WaitTx and SendWait run for the transaction they wait for and Send
// runs after a nonce_future refusal, sends its signed bytes again, or signs
// its message again when its nonce went to another transaction (resend.go).
// Its methods serialise on the key.
type Signer struct {
	// BeforeBroadcast, when set, runs before every broadcast attempt (a rate
	// limiter, a counter); its error ends the send.
	BeforeBroadcast func(ctx context.Context) error
	// Chain answers the queries of the commit-reveal flows (CommitPayload,
	// RevealPending, SubmitAndReveal); nil: the node, when it is one (a
	// *Client is).
	Chain Chain
	// Poll is how often SubmitAndReveal asks whether the reveal window is
	// open (0: DefaultPoll).
	Poll time.Duration
	// TxTimeout bounds the flows' wait for a transaction's block (0:
	// DefaultTxTimeout).
	TxTimeout time.Duration
	// LostAfter is how many blocks a transaction CheckTx took may stay out
	// of a block before Recover counts it as lost (0: DefaultLostAfter;
	// < 0: never).
	LostAfter int64
	// OnRecover, when set, is told what each Recover that did something
	// did (under the key's lock: it must not call the Signer).
	OnRecover func(Recovery)

	node    Node
	chainID string
	key     ed25519.PrivateKey

	mu     sync.Mutex
	nonce  uint64
	synced bool
	fixed  bool // FixNonce: a nonce refusal is returned, not retried
	flight flight
}

// NewSigner returns a signer of key for chainID that sends through node.
func NewSigner(node Node, chainID string, key ed25519.PrivateKey) *Signer {
	return &Signer{node: node, chainID: chainID, key: key}
}

// PubKey is the key's public key (the sender of its transactions).
func (s *Signer) PubKey() ed25519.PublicKey { return s.key.Public().(ed25519.PublicKey) }

// SetNonce makes n the next nonce, without asking the node.
func (s *Signer) SetNonce(n uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nonce, s.synced, s.fixed = n, true, false
}

// FixNonce makes n the next nonce and keeps the Signer from re-reading it:
// a nonce refused as used or in the future is returned as the *TxError it
// is (a nonce the user chose, as the CLI's --nonce).
func (s *Signer) FixNonce(n uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nonce, s.synced, s.fixed = n, true, true
}

// Resync makes the next transaction ask the node for the nonce (and ends
// a FixNonce).
func (s *Signer) Resync() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.synced, s.fixed = false, false
}

// ChainID is the chain the Signer signs for.
func (s *Signer) ChainID() string { return s.chainID }

// sync reads the nonce from the node when it is not known; s.mu is held.
func (s *Signer) sync(ctx context.Context) error {
	if s.synced {
		return nil
	}
	n, err := s.node.NextNonce(ctx, s.PubKey())
	if err != nil {
		return fmt.Errorf("nonce: %w", err)
	}
	if top, ok := s.flight.top(); ok && n <= top && n >= s.flight.txs[0].nonce {
		// The node lacks some of the flight (another node took them, or it lost them):
		// sign after them, so that a refusal as future makes Recover resend them rather
		// than a new transaction take their nonces.
		n = top + 1
	}
	s.nonce, s.synced = n, true
	return nil
}

// Sign signs msg at the next nonce and counts the nonce as used: for a
// caller that broadcasts the bytes itself (and calls Resync if that fails).
func (s *Signer) Sign(ctx context.Context, msg *subnetv1.Msg) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.sync(ctx); err != nil {
		return nil, err
	}
	tx, err := wire.SignTx(s.chainID, s.key, s.nonce, msg)
	if err != nil {
		return nil, err
	}
	s.nonce++
	return tx, nil
}

// Send signs msg at the next nonce and hands it to the mempool
// (broadcast_tx_sync). A nonce refused as used makes it re-read the nonce
// and try again; one refused as in the future (this key's earlier
// transactions are missing from the node's mempool) makes it Recover them
// first. Any other refusal is a *TxError (with the result; a nonce refusal
// under FixNonce carries a Hint). An error without an answer leaves the
// outcome unknown: the nonce is re-read next time.
func (s *Signer) Send(ctx context.Context, msg *subnetv1.Msg) (TxResult, error) {
	return s.send(ctx, msg, nil)
}

// send is Send; stage, when set, runs under the key's lock with the hash of
// each signed attempt just before its broadcast, and its error ends the
// send with nothing broadcast (CommitPayload stores the salt there).
func (s *Signer) send(ctx context.Context, msg *subnetv1.Msg, stage func(hash string) error) (TxResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	recovered := false
	for range sendAttempts {
		if err := s.sync(ctx); err != nil {
			return TxResult{}, err
		}
		if s.BeforeBroadcast != nil {
			if err := s.BeforeBroadcast(ctx); err != nil {
				return TxResult{}, err
			}
		}
		tx, err := wire.SignTx(s.chainID, s.key, s.nonce, msg)
		if err != nil {
			return TxResult{}, err
		}
		if stage != nil {
			if err := stage(TxHash(tx)); err != nil {
				return TxResult{}, err
			}
		}
		res, err := s.node.Broadcast(ctx, tx)
		var te *TxError
		switch {
		case errors.As(err, &te) && !s.fixed && te.Code == wire.CodeNonceFuture && s.flight.has() && !recovered:
			recovered = true
			if _, rerr := s.recoverLocked(ctx, true); rerr != nil {
				return TxResult{}, rerr
			}
			continue
		case errors.As(err, &te) && !s.fixed && (te.Code == wire.CodeNonceUsed || te.Code == wire.CodeNonceFuture):
			s.synced = false
			continue
		case errors.As(err, &te) && wire.IsNonceCode(te.Code):
			te.Hint = s.nonceHint(ctx, te)
			return res, err
		case errors.As(err, &te):
			return res, err
		case err != nil:
			s.synced = false
			return TxResult{}, err
		}
		s.flight.add(msg, s.nonce, tx, res.Hash)
		s.nonce++
		return res, nil
	}
	return TxResult{}, ErrNonceUnstable
}

// SendWait is Send, then WaitTx up to timeout for the transaction's block
// (the block of its resent or re-signed copy if it was lost) and returns
// the block's result; a transaction that failed in its block is a
// *TxError. When the block is not seen in time the outcome is unknown and
// the nonce is re-read next time.
func (s *Signer) SendWait(ctx context.Context, msg *subnetv1.Msg, timeout time.Duration) (TxResult, error) {
	res, err := s.Send(ctx, msg)
	if err != nil {
		return res, err
	}
	return s.WaitTx(ctx, res.Hash, timeout)
}

// waitTx is WaitTx (the flows' name for it).
func (s *Signer) waitTx(ctx context.Context, hash string, timeout time.Duration) (TxResult, error) {
	return s.WaitTx(ctx, hash, timeout)
}
