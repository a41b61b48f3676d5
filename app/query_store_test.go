package app

import (
	"bytes"
	"context"
	"runtime"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// TestStoreQueryProves: after the determinism workload (epochs, scored
// submissions of every track, windows, gas agents), /store/<name>/key with
// Prove answers each record's raw bytes and a proof that verifies against
// the app hash the node committed at the answer's height (the one the
// header at that height + 1 carries); without a height, the answer is at
// the last committed height − 1. The same query without Prove carries no
// proof; a missing record, an unknown store and a key of another store are
// refused with their codes and nothing else.
func TestStoreQueryProves(t *testing.T) {
	n := newNode(t, t.TempDir(), workloadGenesis())
	for _, txs := range workload(t) {
		n.block(txs...)
	}
	ask := func(path string, key []byte, height int64, prove bool) *abcitypes.ResponseQuery {
		t.Helper()
		resp, err := n.app.Query(context.Background(), &abcitypes.RequestQuery{Path: path, Data: key, Height: height, Prove: prove})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	var ep subnetv1.Epoch
	if !(store.State{O: store.NewOverlay(store.Snapshot{Txn: n.app.db.NewTransactionAt(store.Latest, false)})}).Load(store.KeyEpoch(2), &ep) {
		t.Fatal("the workload left no epoch 2")
	}
	records := []struct {
		name string
		key  []byte
	}{
		{wire.StoreCounters, wire.CountersKey()},
		{wire.StoreEpoch, wire.EpochKey(2)},
		{wire.StoreSubmission, wire.SubmissionKey(0)},
		{wire.StoreSubmission, wire.SubmissionKey(20)},
		{wire.StoreWindow, firstKey(t, n, store.PrefixWindow)},
		{wire.StoreGasAgent, firstKey(t, n, store.PrefixGasAgent)},
	}
	for _, r := range records {
		for _, h := range []int64{0, n.height - 3} {
			resp := ask(wire.StoreQueryPath(r.name), r.key, h, true)
			if resp.Code != wire.QueryOK {
				t.Fatalf("%s %x at %d: code %d: %s", r.name, r.key, h, resp.Code, resp.Log)
			}
			want := h
			if h == 0 {
				want = n.height - 1
			}
			if resp.Height != want || !bytes.Equal(resp.Key, r.key) {
				t.Fatalf("%s %x at %d: answered height %d key %x, want %d", r.name, r.key, h, resp.Height, resp.Key, want)
			}
			if err := wire.VerifyProof(n.hashes[resp.Height], r.name, r.key, resp.Value, resp.ProofOps); err != nil {
				t.Fatalf("%s %x at %d: %v", r.name, r.key, h, err)
			}
			if err := wire.VerifyProof(n.hashes[resp.Height-1], r.name, r.key, resp.Value, resp.ProofOps); err == nil && !bytes.Equal(n.hashes[resp.Height-1], n.hashes[resp.Height]) {
				t.Fatalf("%s %x: the proof of height %d verifies against the app hash of the height before", r.name, r.key, resp.Height)
			}
		}
		plain := ask(wire.StoreQueryPath(r.name), r.key, 0, false)
		if plain.Code != wire.QueryOK || plain.ProofOps != nil || plain.Height != n.height || len(plain.Value) == 0 {
			t.Fatalf("%s %x without prove: %+v", r.name, r.key, plain)
		}
	}
	for _, bad := range []struct {
		path string
		key  []byte
		code uint32
	}{
		{wire.StoreQueryPath(wire.StoreEpoch), wire.EpochKey(99), wire.QueryNotFound},
		{wire.StoreQueryPath("task"), store.KeyTask(0), wire.QueryBadRequest},
		{wire.StoreQueryPath(wire.StoreWindow), wire.EpochKey(2), wire.QueryBadRequest},
	} {
		resp := ask(bad.path, bad.key, 0, true)
		if resp.Code != bad.code || resp.ProofOps != nil || resp.Value != nil {
			t.Fatalf("%s %x: code %d (%s), proof %v; want code %d and nothing else", bad.path, bad.key, resp.Code, resp.Log, resp.ProofOps != nil, bad.code)
		}
	}
}

// firstKey is the first key the node's latest state holds under prefix.
func firstKey(t *testing.T, n *node, prefix byte) []byte {
	t.Helper()
	txn := n.app.db.NewTransactionAt(store.Latest, false)
	defer txn.Discard()
	it := txn.NewIterator(badgerIterOpts())
	defer it.Close()
	it.Seek([]byte{prefix})
	if !it.Valid() || it.Item().Key()[0] != prefix {
		t.Fatalf("no entry under prefix %#x", prefix)
	}
	return it.Item().KeyCopy(nil)
}

// TestAppHashSameAcrossGOMAXPROCS: the workload's app hashes, record trees
// included, do not depend on how many cores block execution spreads the
// LtHash over.
func TestAppHashSameAcrossGOMAXPROCS(t *testing.T) {
	blocks := workload(t)
	run := func(procs int) [][]byte {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		n := newNode(t, "", workloadGenesis())
		for _, txs := range blocks {
			n.block(txs...)
		}
		checkFullHash(t, n.app)
		return n.hashes
	}
	one, many := run(1), run(7)
	for h := range one {
		if !bytes.Equal(one[h], many[h]) {
			t.Fatalf("height %d: app hash %x with one core, %x with seven", h, one[h], many[h])
		}
	}
}
