package main

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/keyfile"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// txSession is a key on a node: its home, the node's client, the chain id,
// the public key and a signer (at --nonce when given). With --generate-only
// and a public key for --from, there is no signer.
type txSession struct {
	stderr  io.Writer // progress lines (register-miner)
	home    string
	node    *client.Client
	signer  *client.Signer
	pub     ed25519.PublicKey
	chainID string
	nonce   int64 // --nonce, or -1
	// dryRun: CheckTx only; generateOnly: print the unsigned transaction.
	dryRun, generateOnly bool
}

// openSession loads the key and finds the chain id (from the node unless
// given). The node is asked nothing that the flags answer: --generate-only
// with --chain-id and --nonce needs no node at all.
func (r *txRun) openSession(ctx context.Context) (*txSession, error) {
	f := r.f
	if mf := r.fromMissing(); mf != nil {
		return nil, mf
	}
	s := &txSession{stderr: r.env.Stderr, home: *f.home, nonce: *f.nonce, chainID: *f.chainID, dryRun: *f.dryRun, generateOnly: *f.generateOnly}
	var key ed25519.PrivateKey
	if pub, ok := publicKeyHex(*f.from); ok && s.generateOnly {
		s.pub = pub
	} else {
		if err := checkHome(*f.home); err != nil {
			return nil, err
		}
		k, err := keyfile.Load(*f.home, *f.from)
		if err != nil {
			return nil, err
		}
		key, s.pub = k, k.Public().(ed25519.PublicKey)
	}
	c, err := dialNode(*f.node)
	if err != nil {
		return nil, err
	}
	s.node = c
	if s.chainID == "" {
		st, err := c.NodeStatus(ctx)
		if err != nil {
			return nil, err
		}
		s.chainID = st.ChainID
	}
	if key != nil {
		s.signer = client.NewSigner(c, s.chainID, key)
		s.signer.OnRecover = func(r client.Recovery) { reportRecovery(s.stderr, r) }
		if s.nonce >= 0 {
			s.signer.FixNonce(uint64(s.nonce))
		}
	}
	return s, nil
}

// publicKeyHex is s as a 32-byte ed25519 public key in hex (either case).
func publicKeyHex(s string) (ed25519.PublicKey, bool) {
	bz, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	if err != nil || len(bz) != ed25519.PublicKeySize {
		return nil, false
	}
	return ed25519.PublicKey(bz), true
}

// send delivers msg as the mode flags say: the unsigned transaction
// (--generate-only), CheckTx's answer (--dry-run), or the broadcast's result
// (with --wait the block's, and the scores the transaction caused). It goes
// through the key's client.Signer: a nonce the node's mempool took meanwhile
// is re-read and signed again, and with --wait a transaction CheckTx took
// that no block holds client.DefaultLostAfter blocks later is sent again
// (re-signed if its nonce went to another transaction) and followed under
// its new hash. A refusal is returned with its result; nil when nothing
// reached the node.
func (s *txSession) send(ctx context.Context, msg *subnetv1.Msg, wait bool) (any, error) {
	if s.generateOnly {
		return s.unsigned(ctx, msg)
	}
	if s.dryRun {
		tx, err := s.signer.Sign(ctx, msg)
		if err != nil {
			return nil, err
		}
		return dryRun(ctx, s.node, tx)
	}
	var res client.TxResult
	var err error
	if wait {
		res, err = s.signer.SendWait(ctx, msg, client.DefaultTxTimeout)
		if res.Height > 0 {
			s.addScores(ctx, &res)
		}
	} else {
		res, err = s.signer.Send(ctx, msg)
	}
	if res.Hash == "" {
		return nil, err
	}
	return res, err
}

// dryRun asks the node's app what CheckTx would answer for tx, keeping
// nothing (client.DryRun, the app's simulate query): CometBFT's /check_tx
// would call CheckTx itself, which holds an accepted nonce as pending until
// the next block, so the real transaction after it would be refused.
func dryRun(ctx context.Context, c *client.Client, tx []byte) (any, error) {
	res, err := c.DryRun(ctx, tx)
	if res.Hash == "" {
		return nil, err
	}
	return dryRunResult{res}, err
}

// addScores fills res.Scores; a node that cannot say is noted on stderr
// (the transaction's own result stands).
func (s *txSession) addScores(ctx context.Context, res *client.TxResult) {
	if err := s.node.AddScores(ctx, res); err != nil && s.stderr != nil {
		fmt.Fprintf(s.stderr, "scores of the transaction's block: %v\n", oneLine(err))
	}
}

// unsigned is msg as an unsigned transaction at --nonce, else the node's
// next nonce for the key.
func (s *txSession) unsigned(ctx context.Context, msg *subnetv1.Msg) (client.UnsignedTx, error) {
	nonce := uint64(s.nonce)
	if s.nonce < 0 {
		n, err := s.node.NextNonce(ctx, s.pub)
		if err != nil {
			return client.UnsignedTx{}, err
		}
		nonce = n
	}
	view, err := wire.MessageJSON(msg)
	if err != nil {
		view = nil // the view is for reading only; msg is what is signed
	}
	return client.NewUnsigned(s.chainID, s.pub, nonce, msg, view)
}

// errNoOffline refuses --generate-only for the commit-reveal steps.
var errNoOffline = errors.New("--generate-only: a commit or reveal needs the salt kept in the key's home; run `tx submit`/`tx reveal` where the key is")

// openTx opens a session for a command that signs with tx flags of its own
// (oracle gas): the mode flags it does not define are off.
func openTx(ctx context.Context, f txFlags) (*txSession, error) {
	off := false
	if f.dryRun == nil {
		f.dryRun = &off
	}
	if f.generateOnly == nil {
		f.generateOnly = &off
	}
	return (&txRun{f: f}).openSession(ctx)
}

// reportRecovery says on stderr what the signer did about transactions
// CheckTx took that no block held (client.Signer.Recover).
func reportRecovery(w io.Writer, r client.Recovery) {
	if w == nil {
		return
	}
	for _, h := range r.Resent {
		fmt.Fprintf(w, "tx %s: taken by the node but in no block %d blocks later (lost from its mempool); sent again\n", h, client.DefaultLostAfter)
	}
	for _, rs := range r.Resigned {
		fmt.Fprintf(w, "tx %s: lost, and its nonce went to another transaction; signed again as %s\n", rs.Old, rs.New)
	}
	for _, rf := range r.Refused {
		fmt.Fprintf(w, "tx %s: lost, and refused when sent again: %v\n", rf.Hash, oneLine(rf.Err))
	}
}
