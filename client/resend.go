package client

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// DefaultLostAfter is Signer.LostAfter's default: a transaction CheckTx
// took that is in no block 10 blocks later is lost. A healthy chain
// includes it in the next block or the one after; a full mempool or a
// node catching up after a restart may take a few more.
const DefaultLostAfter = 10

// Tracker is a Node that can tell a lost transaction: the app's committed
// height and a key's committed nonce (without the mempool). *Client is
// one. A Signer whose node is no Tracker never counts a transaction lost.
type Tracker interface {
	Height(ctx context.Context) (int64, error)
	CommittedNonce(ctx context.Context, pub ed25519.PublicKey) (uint64, error)
}

// Recovery is what one Recover did. Committed are transactions that looked
// lost and were found in a block; Resent were sent again as they were
// signed (same bytes, same hash); Resigned were signed again at a new
// nonce, theirs having gone to another transaction; Refused are those the
// app refused when sent again (their message is no longer valid: a window
// passed …), dropped from the flight.
type Recovery struct {
	Committed []string
	Resent    []string
	Resigned  []Resigned
	Refused   []Refusal
}

// Refusal is a lost transaction the app refused when it was sent again:
// Hash is the one it was first sent under.
type Refusal struct {
	Hash string
	Err  *TxError
}

// Resigned is a lost transaction signed again: Old its first hash, New the
// hash of its new signature.
type Resigned struct {
	Old, New string
}

func (r Recovery) empty() bool {
	return len(r.Committed)+len(r.Resent)+len(r.Resigned)+len(r.Refused) == 0
}

// sentTx is a transaction CheckTx took and no block showed yet.
type sentTx struct {
	msg   *subnetv1.Msg
	nonce uint64
	tx    []byte
	hash  string
	// seen is the committed height when the Signer first looked after the
	// send (0: not yet): the blocks it is counted lost after start there.
	seen int64
	// resignAfter, when set, is the height after which it is signed again:
	// a transaction behind a refused one (see recoverLocked).
	resignAfter int64
}

// flight is the Signer's transactions not seen in a block yet, by nonce.
type flight struct {
	txs []*sentTx
	// moved maps the hash of a re-signed transaction to its new one.
	moved map[string]string
}

// maxFlight bounds the flight: a caller that never waits for its
// transactions (Send alone) keeps at most this many to recover.
const maxFlight = 4096

func (f *flight) has() bool { return len(f.txs) > 0 }

// top is the highest nonce in flight.
func (f *flight) top() (uint64, bool) {
	if len(f.txs) == 0 {
		return 0, false
	}
	var m uint64
	for _, t := range f.txs {
		m = max(m, t.nonce)
	}
	return m, true
}

func (f *flight) add(msg *subnetv1.Msg, nonce uint64, tx []byte, hash string) {
	if len(f.txs) >= maxFlight {
		f.txs = f.txs[1:]
	}
	f.txs = append(f.txs, &sentTx{msg: msg, nonce: nonce, tx: tx, hash: hash})
}

// done removes the transaction of hash (seen in a block).
func (f *flight) done(hash string) {
	for i, t := range f.txs {
		if t.hash == hash {
			f.txs = append(f.txs[:i], f.txs[i+1:]...)
			return
		}
	}
}

// follow is the hash hash's transaction goes by now (after re-signs).
func (f *flight) follow(hash string) string {
	for range len(f.moved) + 1 {
		next, ok := f.moved[hash]
		if !ok {
			return hash
		}
		hash = next
	}
	return hash
}

func (f *flight) move(old, new string) {
	if f.moved == nil {
		f.moved = map[string]string{}
	}
	f.moved[old] = new
}

// InFlight is how many of the Signer's transactions CheckTx took that no
// block has shown it yet.
func (s *Signer) InFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.flight.txs)
}

// Confirmed tells the Signer that the transaction of hash is in a block
// (for a caller that waits for blocks itself rather than with WaitTx).
func (s *Signer) Confirmed(hash string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flight.done(hash)
}

func (s *Signer) lostAfter() int64 {
	if s.LostAfter == 0 {
		return DefaultLostAfter
	}
	return s.LostAfter
}

// findWait bounds Recover's look-up of a transaction whose nonce the chain
// has taken: the tx index of a node may trail its state by a moment.
const findWait = 2 * time.Second

// waitSlice is how long WaitTx polls for a transaction between two looks
// at whether it is lost.
const waitSlice = time.Second

// WaitTx waits up to timeout for the block of a transaction Send sent and
// returns the block's result (a *TxError when it failed there). Between
// polls it runs Recover, so a lost transaction is sent again and waited
// for under its new hash if it was re-signed; one the app refuses when it
// is sent again (its message is no longer valid: a window closed) ends the
// wait with that refusal, a *TxError. When no block shows it in time the
// outcome is unknown and the nonce is re-read next time.
func (s *Signer) WaitTx(ctx context.Context, hash string, timeout time.Duration) (TxResult, error) {
	deadline := time.Now().Add(timeout)
	for {
		s.mu.Lock()
		cur := s.flight.follow(hash)
		s.mu.Unlock()
		slice := min(time.Until(deadline), waitSlice)
		if _, ok := s.node.(Tracker); !ok || s.lostAfter() < 0 {
			slice = time.Until(deadline)
		}
		res, err := s.node.WaitTx(ctx, cur, max(slice, time.Millisecond))
		var te *TxError
		if err == nil || errors.As(err, &te) {
			s.Confirmed(cur)
			return res, err
		}
		if !time.Now().Before(deadline) || ctx.Err() != nil {
			s.Resync()
			return res, err
		}
		rec, rerr := s.Recover(ctx)
		if rerr != nil && ctx.Err() != nil {
			s.Resync()
			return TxResult{}, rerr
		}
		for _, f := range rec.Refused {
			if f.Hash == hash || f.Hash == cur {
				// sent again, the app refused it (its message is no longer
				// valid): it can never be in a block, so that is the answer
				s.Resync()
				return f.Err.Result, f.Err
			}
		}
	}
}

// Recover looks at the Signer's flight when its node is a Tracker: once
// the oldest transaction is LostAfter blocks old and in no block, every
// transaction from the committed nonce on is sent again as it was signed
// (the bytes are still valid: same nonce); one whose nonce the chain took
// for another transaction (not found by its hash) is signed again at the
// next free nonce. A transaction refused when sent again is dropped, and
// those behind it (their nonces can no longer follow on) are signed again
// once a block has passed, after which no mempool holds their old bytes.
// It returns what it did.
func (s *Signer) Recover(ctx context.Context) (Recovery, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.recoverLocked(ctx, false)
}

// recoverLocked is Recover under s.mu; force skips the wait for LostAfter
// blocks (a nonce_future refusal: the node is missing earlier ones now).
func (s *Signer) recoverLocked(ctx context.Context, force bool) (Recovery, error) {
	tr, ok := s.node.(Tracker)
	if !ok || !s.flight.has() || s.lostAfter() < 0 {
		return Recovery{}, nil
	}
	h, err := tr.Height(ctx)
	if err != nil {
		return Recovery{}, err
	}
	for _, t := range s.flight.txs {
		if t.seen == 0 {
			t.seen = h
		}
	}
	if !force && h < s.flight.txs[0].seen+s.lostAfter() {
		return Recovery{}, nil
	}
	c, err := tr.CommittedNonce(ctx, s.PubKey())
	if err != nil {
		return Recovery{}, err
	}
	var out Recovery
	var resign, keep []*sentTx
	for _, t := range s.flight.txs {
		switch {
		case t.nonce < c:
			if _, err := s.node.WaitTx(ctx, t.hash, findWait); err == nil || errors.As(err, new(*TxError)) {
				out.Committed = append(out.Committed, t.hash)
				continue
			}
			resign = append(resign, t)
		case t.resignAfter > 0:
			resign = append(resign, t)
		default:
			keep = append(keep, t)
		}
	}
	kept, behind, err := s.resend(ctx, keep, h, &out)
	s.flight.txs = append(kept, behind...)
	if err != nil {
		// No node answered: those still to be signed again stay in flight
		// as they are, for the next Recover.
		s.flight.txs = append(s.flight.txs, resign...)
		return s.report(out), err
	}
	s.nonce = max(s.nonce, c)
	if len(kept) > 0 {
		s.nonce = max(s.nonce, kept[len(kept)-1].nonce+1)
	}
	var later []*sentTx
	for i, t := range resign {
		if t.resignAfter > 0 && h <= t.resignAfter {
			later = append(later, t)
			continue
		}
		if err := s.resign(ctx, t, &out); err != nil {
			// Those after t were not signed again: they stay in flight
			// under their old hashes, for the next Recover.
			s.flight.txs = append(append(s.flight.txs, later...), resign[i+1:]...)
			return s.report(out), err
		}
	}
	s.flight.txs = append(s.flight.txs, later...)
	return s.report(out), nil
}

// resend broadcasts keep's bytes again in nonce order. It returns those
// still in flight and those behind a refused one (marked to be signed
// again after height h); an error is a node that did not answer.
func (s *Signer) resend(ctx context.Context, keep []*sentTx, h int64, out *Recovery) (kept, behind []*sentTx, err error) {
	for i, t := range keep {
		res, err := s.node.Broadcast(ctx, t.tx)
		var te *TxError
		switch {
		case err == nil || inCache(err):
			t.seen = h
			out.Resent = append(out.Resent, t.hash)
			kept = append(kept, t)
		case errors.As(err, &te) && wire.IsNonceCode(te.Code):
			// nonce_used: the node holds it, or a block took it since the
			// committed nonce was read; nonce_future: an earlier one is
			// missing there. Either way the next Recover decides.
			kept = append(kept, t)
		case errors.As(err, &te):
			te.Result = res
			out.Refused = append(out.Refused, Refusal{Hash: t.hash, Err: te})
			for _, b := range keep[i+1:] {
				b.resignAfter = h
				behind = append(behind, b)
			}
			return kept, behind, nil
		default:
			return append(kept, keep[i:]...), nil, err
		}
	}
	return kept, nil, nil
}

// resign signs t's message again at the next nonce and broadcasts it. A
// broadcast no node answered may still have reached a mempool, so the new
// transaction is in flight under its new hash either way: a later Recover
// finds it in a block or sends the same bytes again, and the message runs
// once. The error is that broadcast's.
//
// A nonce refusal says nothing of the message: another sender of the key
// took that nonce in the mempool since it was read. The pending nonce is
// read again and t signed past it, up to sendAttempts times; after that t
// stays in flight as it was, for the next Recover, and the error is
// ErrNonceUnstable.
func (s *Signer) resign(ctx context.Context, t *sentTx, out *Recovery) error {
	var tx []byte
	var err error
	for attempt := 1; ; attempt++ {
		if tx, err = wire.SignTx(s.chainID, s.key, s.nonce, t.msg); err != nil {
			return err
		}
		_, err = s.node.Broadcast(ctx, tx)
		var te *TxError
		if !errors.As(err, &te) {
			break
		}
		if s.fixed || te.Code != wire.CodeNonceUsed {
			out.Refused = append(out.Refused, Refusal{Hash: t.hash, Err: te})
			return nil
		}
		s.synced = false
		if attempt == sendAttempts {
			s.flight.txs = append(s.flight.txs, t)
			return ErrNonceUnstable
		}
		n, nerr := s.node.NextNonce(ctx, s.PubKey())
		if nerr != nil {
			s.flight.txs = append(s.flight.txs, t)
			return fmt.Errorf("nonce: %w", nerr)
		}
		s.nonce = max(n, s.nonce+1)
	}
	hash := TxHash(tx)
	s.flight.move(t.hash, hash)
	out.Resigned = append(out.Resigned, Resigned{Old: t.hash, New: hash})
	s.flight.txs = append(s.flight.txs, &sentTx{msg: t.msg, nonce: s.nonce, tx: tx, hash: hash})
	s.nonce++
	if err != nil && !inCache(err) { // inCache: these very bytes reached a mempool before
		s.synced = false
		return err
	}
	return nil
}

func (s *Signer) report(r Recovery) Recovery {
	if !r.empty() && s.OnRecover != nil {
		s.OnRecover(r)
	}
	return r
}

// inCache is CometBFT's refusal of bytes its mempool cache holds: the node
// has taken them already.
func inCache(err error) bool {
	return err != nil && strings.Contains(err.Error(), "tx already exists in cache")
}
