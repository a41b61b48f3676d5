package client

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Defaults of the commit-reveal flows (Signer.Poll, Signer.TxTimeout).
const (
	DefaultPoll      = 250 * time.Millisecond
	DefaultTxTimeout = 30 * time.Second
)

// Chain is what the commit-reveal flows read of the chain; *Client is one.
type Chain interface {
	Status(ctx context.Context) (*wire.StatusView, error)
	Account(ctx context.Context, pub ed25519.PublicKey) (*wire.AccountView, error)
	Task(ctx context.Context, id uint64) (*wire.TaskView, error)
	Truth(ctx context.Context, evmChainID, evmBlock uint64) (*wire.TruthRoundView, error)
	Submission(ctx context.Context, id uint64) (*wire.SubmissionView, error)
	Tx(ctx context.Context, hash string) (TxResult, error)
}

// SubmitResult is what SubmitAndReveal did: the commit's block result, the
// reveal's once it was sent, and the file of the pending reveal while there
// is one. Its JSON is what `validatord tx submit` prints.
type SubmitResult struct {
	Commit  TxResult  `json:"commit"`
	Reveal  *TxResult `json:"reveal"`
	Pending string    `json:"pending,omitempty"`
}

func (s *Signer) chain() (Chain, error) {
	if s.Chain != nil {
		return s.Chain, nil
	}
	if c, ok := s.node.(Chain); ok {
		return c, nil
	}
	return nil, errors.New("client: the signer's node answers no queries; set Signer.Chain")
}

func (s *Signer) poll() time.Duration {
	if s.Poll > 0 {
		return s.Poll
	}
	return DefaultPoll
}

func (s *Signer) txTimeout() time.Duration {
	if s.TxTimeout > 0 {
		return s.TxTimeout
	}
	return DefaultTxTimeout
}

// UID is the miner uid of the Signer's key, from the account query;
// ErrNotMiner when the key owns none.
func (s *Signer) UID(ctx context.Context) (uint32, error) {
	c, err := s.chain()
	if err != nil {
		return 0, err
	}
	acc, err := c.Account(ctx, s.PubKey())
	if err != nil {
		return 0, err
	}
	if !acc.Miner || acc.UID == nil {
		return 0, fmt.Errorf("key %x: %w (send register-miner first)", s.PubKey(), ErrNotMiner)
	}
	return *acc.UID, nil
}

// CommitPayload commits the Signer's key, as miner uid, to payload: a salt
// from NewSalt, the entry written to store before the commit is broadcast,
// then the commit's block awaited and its height recorded. It returns the
// entry and the commit's block result.
//
// An entry of the same key and payload whose commit was never seen in a
// block is resumed with its salt: the commitment is the same, so whichever
// of its commits lands, the entry opens it. Any other entry for the target
// is ErrRevealExists. A refused commit removes the entry it created; when
// the outcome is unknown the entry stays for a later CommitPayload or
// RevealPending.
func (s *Signer) CommitPayload(ctx context.Context, store *SaltStore, uid uint32, payload *subnetv1.MsgSubmit) (PendingReveal, TxResult, error) {
	if store.ChainID() != s.chainID {
		return PendingReveal{}, TxResult{}, fmt.Errorf("client: a store of chain %q for a signer of %q", store.ChainID(), s.chainID)
	}
	t, err := TargetOf(payload)
	if err != nil {
		return PendingReveal{}, TxResult{}, err
	}
	p, resumed, err := s.entryFor(store, t, uid, payload)
	if err != nil {
		return PendingReveal{}, TxResult{}, err
	}
	if resumed {
		if res, ok := s.findCommit(ctx, p); ok {
			return recordCommit(store, p, res)
		}
	}
	msg, err := Commit(s.chainID, s.PubKey(), uid, payload, p.Salt)
	if err != nil {
		return PendingReveal{}, TxResult{}, err
	}
	stored := resumed
	res, err := s.send(ctx, msg, func(hash string) error {
		p.CommitTx = hash
		if stored {
			return store.Update(p)
		}
		if err := store.Create(p); err != nil {
			return err
		}
		stored = true
		return nil
	})
	if err == nil {
		res, err = s.waitTx(ctx, res.Hash, s.txTimeout())
	}
	var te *TxError
	switch {
	case err == nil:
		return recordCommit(store, p, res)
	case errors.As(err, &te) && !resumed && stored:
		if rerr := store.Remove(t); rerr != nil {
			return PendingReveal{}, res, fmt.Errorf("%w (removing its pending reveal: %v)", err, rerr)
		}
		return PendingReveal{}, res, err
	case errors.As(err, &te):
		return p, res, fmt.Errorf("%w (the pending reveal stays in %s: an earlier commit of it may be on chain)", err, store.Path(t))
	case stored:
		return p, res, fmt.Errorf("commit of %s: %w (outcome unknown: the salt stays in %s)", t, err, store.Path(t))
	}
	return PendingReveal{}, res, err
}

// entryFor is a new entry with a fresh salt, or the stored one to resume.
func (s *Signer) entryFor(store *SaltStore, t Target, uid uint32, payload *subnetv1.MsgSubmit) (PendingReveal, bool, error) {
	old, err := store.Load(t)
	if errors.Is(err, ErrNoPendingReveal) {
		salt, err := NewSalt()
		if err != nil {
			return PendingReveal{}, false, err
		}
		return PendingReveal{Target: t, Sender: s.PubKey(), UID: uid, Payload: payload, Salt: salt}, false, nil
	}
	if err != nil {
		return PendingReveal{}, false, err
	}
	a, errA := old.Payload.Marshal()
	b, errB := payload.Marshal()
	switch {
	case errA != nil || errB != nil || !bytes.Equal(a, b) || !bytes.Equal(old.Sender, s.PubKey()) || old.UID != uid:
		return PendingReveal{}, false, fmt.Errorf("%w for %s in %s, of another payload or key: reveal it first", ErrRevealExists, t, store.Path(t))
	case old.CommitHeight > 0:
		return PendingReveal{}, false, fmt.Errorf("%w for %s: committed at height %d; reveal it (tx reveal)", ErrRevealExists, t, old.CommitHeight)
	}
	return old, true, nil
}

// findCommit looks p's stored commit up on chain: ok when it is in a block
// and succeeded.
func (s *Signer) findCommit(ctx context.Context, p PendingReveal) (TxResult, bool) {
	if p.CommitTx == "" || p.CommitHeight > 0 {
		return TxResult{}, false
	}
	c, err := s.chain()
	if err != nil {
		return TxResult{}, false
	}
	res, err := c.Tx(ctx, p.CommitTx)
	return res, err == nil && res.Height > 0
}

// recordCommit stores the commit's height and submission id in p's entry.
// The commit may be an entry of a commit batch (CommitPayloads): then its
// own entry's outcome counts, and an entry the batch refused is removed
// (ErrCommitRefused: it never committed).
func recordCommit(store *SaltStore, p PendingReveal, res TxResult) (PendingReveal, TxResult, error) {
	p.CommitHeight = res.Height
	if id, err := res.AttrU64(wire.EventSubmissionAdded, "submission_id"); err == nil {
		p.SubmissionID = &id
	}
	if entries := BatchEntries(res, wire.EventCommitEntry); len(entries) > 0 {
		p.SubmissionID = nil
		for _, e := range entries {
			if e.Target != p.Target {
				continue
			}
			if e.Code == wire.CodeDuplicateSubmission {
				break // a copy of this commit sent earlier is on chain: the salt opens it
			}
			if e.Code != wire.CodeOK {
				if err := store.Remove(p.Target); err != nil {
					return p, res, err
				}
				return p, res, fmt.Errorf("%w: %s, in the commit batch %s at height %d: code %d (%s)", ErrCommitRefused, p.Target, res.Hash, res.Height, e.Code, e.Log)
			}
			p.SubmissionID = e.SubmissionID
		}
	}
	if err := store.Update(p); err != nil {
		return p, res, fmt.Errorf("commit of %s in block %d, but recording it: %w", p.Target, res.Height, err)
	}
	return p, res, nil
}

// RevealPending reveals the stored entry of target when its window is open
// for the next block. It checks first and sends nothing otherwise (a
// *RevealWindowError: ErrRevealTooEarly or ErrRevealClosed); then it sends
// the reveal, waits for its block and removes the entry. A reveal refused
// as a second one (code 28: the first is on chain) removes it too.
func (s *Signer) RevealPending(ctx context.Context, store *SaltStore, t Target) (TxResult, error) {
	p, err := store.Load(t)
	if err != nil {
		return TxResult{}, err
	}
	if !bytes.Equal(p.Sender, s.PubKey()) {
		return TxResult{}, fmt.Errorf("%w for %s, committed by key %x, not %x", ErrRevealExists, t, p.Sender, s.PubKey())
	}
	if res, ok := s.findCommit(ctx, p); ok {
		if p, _, err = recordCommit(store, p, res); err != nil {
			return TxResult{}, err
		}
	}
	c, err := s.chain()
	if err != nil {
		return TxResult{}, err
	}
	if err := CheckRevealWindow(ctx, c, p); err != nil {
		return TxResult{}, err
	}
	res, err := s.SendWait(ctx, Reveal(p.Payload, p.Salt), s.txTimeout())
	var te *TxError
	if err == nil || errors.As(err, &te) && te.Code == wire.CodeDuplicateSubmission {
		if rerr := store.Remove(t); rerr != nil && err == nil {
			return res, fmt.Errorf("revealed in block %d, but removing %s: %w", res.Height, store.Path(t), rerr)
		}
	}
	return res, err
}

// SubmitAndReveal is the whole commit-reveal of payload: CommitPayload,
// then a wait until the reveal window is open for the next block (never
// earlier: polling the task's or the EVM block's truth round every
// Signer.Poll), then RevealPending. A window that passed or will never
// open ends it with ErrRevealClosed; the entry then stays in store.
func (s *Signer) SubmitAndReveal(ctx context.Context, store *SaltStore, uid uint32, payload *subnetv1.MsgSubmit) (SubmitResult, error) {
	t, err := TargetOf(payload)
	if err != nil {
		return SubmitResult{}, err
	}
	p, res, err := s.CommitPayload(ctx, store, uid, payload)
	out := SubmitResult{Commit: res, Pending: store.Pending(t)}
	if err != nil {
		return out, err
	}
	c, err := s.chain()
	if err != nil {
		return out, err
	}
	if err := WaitRevealWindow(ctx, c, p, s.poll()); err != nil {
		return out, err
	}
	rev, err := s.RevealPending(ctx, store, t)
	out.Reveal = &rev
	out.Pending = store.Pending(t)
	return out, err
}
