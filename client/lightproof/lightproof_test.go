package lightproof_test

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cometbft/cometbft/crypto/tmhash"
	cmtcrypto "github.com/cometbft/cometbft/proto/tendermint/crypto"
	rpchttp "github.com/cometbft/cometbft/rpc/client/http"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/client/lightproof"
	"github.com/scoringsubnet/validatord/internal/testnode"
)

// The light client needs a primary and at least one witness. These tests
// run one real node (internal/testnode) and give its RPC address as both:
// two separate RPC clients of the same node, which agree by construction.
// What a lying node is caught at (a tampered value or proof) is made by
// changing the node's honest answer before it is checked.

func options(n *testnode.Node) lightproof.Options {
	return lightproof.Options{ChainID: n.ChainID, Primary: n.Addr, Witnesses: []string{n.Addr}}
}

// trustRoot is the hash of the node's header at height h, read through
// CometBFT's /commit as a user would from a node they trust.
func trustRoot(t *testing.T, n *testnode.Node, h int64) []byte {
	t.Helper()
	rpc, err := rpchttp.New(n.Addr, "/websocket")
	if err != nil {
		t.Fatal(err)
	}
	c, err := rpc.Commit(testnode.Ctx(t), &h)
	if err != nil {
		t.Fatal(err)
	}
	return c.SignedHeader.Hash()
}

func TestNewTrustRoot(t *testing.T) {
	n := testnode.Start(t, testnode.Options{ChainID: "lightproof-trust"})
	ctx := testnode.Ctx(t)
	n.WaitHeight(t, 3)

	t.Run("no witness", func(t *testing.T) {
		o := options(n)
		o.Witnesses = nil
		_, err := lightproof.New(ctx, o)
		if err == nil || !strings.Contains(err.Error(), "witness") {
			t.Fatalf("want a no-witness refusal, got %v", err)
		}
	})
	t.Run("hash without height", func(t *testing.T) {
		o := options(n)
		o.TrustHash = make([]byte, tmhash.Size)
		if _, err := lightproof.New(ctx, o); err == nil || !strings.Contains(err.Error(), "trust height") {
			t.Fatalf("want a refusal naming the trust height, got %v", err)
		}
	})
	t.Run("wrong hash", func(t *testing.T) {
		o := options(n)
		o.TrustHeight, o.TrustHash = 2, bytes.Repeat([]byte{0xab}, tmhash.Size)
		_, err := lightproof.New(ctx, o)
		var te *lightproof.TrustError
		if !errors.As(err, &te) || te.Height != 2 || !strings.Contains(err.Error(), "trust hash is not the hash") {
			t.Fatalf("want a *TrustError at 2 naming the hash, got %v", err)
		}
	})
	t.Run("right hash", func(t *testing.T) {
		o := options(n)
		o.TrustHeight, o.TrustHash = 2, trustRoot(t, n, 2)
		v, err := lightproof.New(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		if v.TrustedOnFirstUse() {
			t.Fatal("a given trust hash is not trust on first use")
		}
	})
	t.Run("first use", func(t *testing.T) {
		v, err := lightproof.New(ctx, options(n))
		if err != nil {
			t.Fatal(err)
		}
		if !v.TrustedOnFirstUse() || v.ChainID() != n.ChainID {
			t.Fatalf("tofu %v chain %q", v.TrustedOnFirstUse(), v.ChainID())
		}
		r := lightproof.Proven{TrustedOnFirstUse: true}.Report()
		if r.Warning != lightproof.TOFUWarning {
			t.Fatalf("a report trusted on first use has no warning: %+v", r)
		}
		// Paths that name no single record of a provable store are refused
		// before anything is asked.
		for _, path := range []string{"status", "epoch", "epoch/x", "window/3", "window/x/workflow", "gas/1/x", "miner/1", "submission/1/2"} {
			if _, err := v.ProvePath(ctx, path); !errors.Is(err, lightproof.ErrNotProvable) {
				t.Errorf("%s: want ErrNotProvable, got %v", path, err)
			}
		}
		if _, err := v.Query(ctx, "miner", []byte{1}, 0); err == nil || !strings.Contains(err.Error(), "not a provable store") {
			t.Errorf("store miner: %v", err)
		}
	})
	t.Run("expired trust", func(t *testing.T) {
		// Header 2 is older than a period of a nanosecond: the light client
		// refuses to verify anything from it.
		o := options(n)
		o.TrustHeight, o.TrustHash, o.TrustPeriod = 2, trustRoot(t, n, 2), time.Nanosecond
		v, err := lightproof.New(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		_, err = v.Check(ctx, wire.StoreEpoch, wire.EpochKey(1), []byte{1}, 2, &cmtcrypto.ProofOps{}, nil)
		var he *lightproof.HeaderError
		if !errors.As(err, &he) || he.Height != 3 || !strings.Contains(err.Error(), "older than the trust period") {
			t.Fatalf("want a *HeaderError at 3 naming the trust period, got %v", err)
		}
	})
	t.Run("other chain", func(t *testing.T) {
		o := options(n)
		o.ChainID = "another-chain"
		if _, err := lightproof.New(ctx, o); err == nil {
			t.Fatal("headers of another chain were trusted")
		}
	})
}

func TestProvenRecords(t *testing.T) {
	n := testnode.Start(t, testnode.DriveOptions())
	d := n.Drive(t)
	ctx := testnode.Ctx(t)
	o := options(n)
	o.TrustHeight, o.TrustHash = 1, trustRoot(t, n, 1)
	v, err := lightproof.New(ctx, o)
	if err != nil {
		t.Fatal(err)
	}

	checkProven := func(t *testing.T, p lightproof.Proven, store string, key []byte) {
		t.Helper()
		if p.Store != store || !bytes.Equal(p.Key, key) || p.Header.Height != p.Height+1 || len(p.Header.AppHash) == 0 {
			t.Fatalf("proven %+v", p)
		}
		if !p.TwoThirds() || p.SignedPower != 10 || p.TotalPower != 10 || p.TrustedOnFirstUse {
			t.Fatalf("power %d/%d tofu %v", p.SignedPower, p.TotalPower, p.TrustedOnFirstUse)
		}
	}
	t.Run("epoch", func(t *testing.T) {
		ep, p, err := v.LatestEpoch(ctx)
		if err != nil {
			t.Fatal(err)
		}
		checkProven(t, p, wire.StoreEpoch, wire.EpochKey(ep.Number))
		want, err := n.Client.Epoch(ctx, ep.Number)
		if err != nil {
			t.Fatal(err)
		}
		if want.Epoch.Number != ep.Number || want.Epoch.Height != ep.Height || len(ep.U16) == 0 {
			t.Fatalf("proven epoch %+v, node says %+v", ep, want.Epoch)
		}
	})
	t.Run("submission", func(t *testing.T) {
		sub, p, err := v.Submission(ctx, d.Submissions[0])
		if err != nil {
			t.Fatal(err)
		}
		checkProven(t, p, wire.StoreSubmission, wire.SubmissionKey(d.Submissions[0]))
		if sub.Uid != d.UID {
			t.Fatalf("submission of uid %d, want %d", sub.Uid, d.UID)
		}
	})
	t.Run("window", func(t *testing.T) {
		_, p, err := v.Window(ctx, "workflow", d.UID)
		if err != nil {
			t.Fatal(err)
		}
		checkProven(t, p, wire.StoreWindow, wire.WindowKey(1, d.UID))
	})
	t.Run("paths", func(t *testing.T) {
		for _, path := range []string{"epoch/latest", "submission/" + strconv.FormatUint(d.Submissions[1], 10),
			"window/" + strconv.Itoa(int(d.UID)) + "/arena"} {
			r, err := v.ProvePath(ctx, path)
			if err != nil || r.View == nil || !r.Proven.TwoThirds || r.Proven.Warning != "" {
				t.Fatalf("%s: %+v %v", path, r, err)
			}
		}
	})
	t.Run("weights", func(t *testing.T) {
		netuid := uint16(3)
		w, err := v.Weights(ctx, 0, &netuid, 7)
		if err != nil {
			t.Fatal(err)
		}
		ep, err := n.Client.Epoch(ctx, w.Epoch)
		if err != nil {
			t.Fatal(err)
		}
		if len(w.UIDs) != len(ep.Epoch.U16) || *w.NetUID != 3 || w.VersionKey != 7 || w.Height != w.Proven.StateHeight || w.AppHash != w.Proven.Header.AppHash {
			t.Fatalf("weights %+v, epoch %+v", w, ep.Epoch)
		}
		sum := 0
		for i, u := range ep.Epoch.U16 {
			if uint32(w.UIDs[i]) != u.UID || uint32(w.Weights[i]) != u.Weight {
				t.Fatalf("entry %d: %d=%d, epoch %+v", i, w.UIDs[i], w.Weights[i], u)
			}
			sum += int(w.Weights[i])
		}
		if sum != 65535 {
			t.Fatalf("weights sum %d", sum)
		}
	})
	t.Run("missing", func(t *testing.T) {
		_, _, err := v.Submission(ctx, 1<<40)
		var qe *client.QueryError
		if !errors.As(err, &qe) || qe.Code != wire.QueryNotFound {
			t.Fatalf("want not found, got %v", err)
		}
	})

	// A node that lies: its honest answer, changed before the check.
	key := wire.SubmissionKey(d.Submissions[0])
	res, err := n.Client.QueryProof(ctx, wire.StoreQueryPath(wire.StoreSubmission), key, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("honest answer", func(t *testing.T) {
		if _, err := v.Check(ctx, wire.StoreSubmission, key, res.Value, res.Height, res.ProofOps, res.Key); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("tampered value", func(t *testing.T) {
		value := bytes.Clone(res.Value)
		value[len(value)/2] ^= 1
		_, err := v.Check(ctx, wire.StoreSubmission, key, value, res.Height, res.ProofOps, res.Key)
		t.Log(err)
		if !errors.Is(err, lightproof.ErrNotProven) || !errors.Is(err, wire.ErrProof) {
			t.Fatalf("want ErrNotProven, got %v", err)
		}
	})
	t.Run("tampered proof op", func(t *testing.T) {
		ops := &cmtcrypto.ProofOps{}
		for _, op := range res.ProofOps.Ops {
			ops.Ops = append(ops.Ops, cmtcrypto.ProofOp{Type: op.Type, Key: bytes.Clone(op.Key), Data: bytes.Clone(op.Data)})
		}
		ops.Ops[0].Data[len(ops.Ops[0].Data)-1] ^= 1
		_, err := v.Check(ctx, wire.StoreSubmission, key, res.Value, res.Height, ops, res.Key)
		t.Log(err)
		if !errors.Is(err, lightproof.ErrNotProven) {
			t.Fatalf("want ErrNotProven, got %v", err)
		}
	})
	t.Run("another height", func(t *testing.T) {
		// The same proof checked against another header's app hash.
		_, err := v.Check(ctx, wire.StoreSubmission, key, res.Value, res.Height-1, res.ProofOps, res.Key)
		if !errors.Is(err, lightproof.ErrNotProven) {
			t.Fatalf("want ErrNotProven, got %v", err)
		}
	})
	t.Run("another key", func(t *testing.T) {
		_, err := v.Check(ctx, wire.StoreSubmission, wire.SubmissionKey(d.Submissions[1]), res.Value, res.Height, res.ProofOps, res.Key)
		if !errors.Is(err, lightproof.ErrNotProven) {
			t.Fatalf("want ErrNotProven, got %v", err)
		}
	})
}

// A height the chain has not reached yet: Check waits for it until its
// context ends, then says which header it could not get.
func TestHeaderNotYetCommitted(t *testing.T) {
	n := testnode.Start(t, testnode.Options{ChainID: "lightproof-wait"})
	v, err := lightproof.New(testnode.Ctx(t), options(n))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(testnode.Ctx(t))
	cancel()
	_, err = v.Check(ctx, wire.StoreEpoch, wire.EpochKey(1), []byte{1}, 1<<40, &cmtcrypto.ProofOps{}, nil)
	var he *lightproof.HeaderError
	if !errors.As(err, &he) || he.Height != 1<<40+1 {
		t.Fatalf("want a *HeaderError at %d, got %v", int64(1<<40+1), err)
	}
}

// TestDivergingWitness: a witness on another chain of the same id (its own
// validator, so its own headers) is caught, with a trust root taken on
// first use and with a given one.
func TestDivergingWitness(t *testing.T) {
	a := testnode.Start(t, testnode.Options{ChainID: "lightproof-fork"})
	b := testnode.Start(t, testnode.Options{ChainID: "lightproof-fork"})
	ctx := testnode.Ctx(t)
	a.WaitHeight(t, 3)
	b.WaitHeight(t, 3)
	o := lightproof.Options{ChainID: a.ChainID, Primary: a.Addr, Witnesses: []string{b.Addr}, TrustHeight: 2}
	_, err := lightproof.New(ctx, o)
	var te *lightproof.TrustError
	if !errors.As(err, &te) || !errors.Is(err, lightproof.ErrDiverged) || !strings.Contains(err.Error(), b.Addr) {
		t.Fatalf("first use: want a divergence naming the witness, got %v", err)
	}
	o.TrustHash = trustRoot(t, a, 2)
	_, err = lightproof.New(ctx, o)
	t.Log(err)
	if !errors.As(err, &te) || !errors.Is(err, lightproof.ErrDiverged) {
		t.Fatalf("given hash: want the light client's divergence, got %v", err)
	}
}
