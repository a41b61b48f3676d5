package commitment_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/cometbft/cometbft/crypto/merkle"
	cmtcrypto "github.com/cometbft/cometbft/proto/tendermint/crypto"

	"github.com/scoringsubnet/validatord/app/commitment"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
)

// model is the reference: per store, the leaf bytes in slot order and the
// queue of free slots, kept apart from the package's own bookkeeping; roots
// come from CometBFT's merkle.HashFromByteSlices over the leaf bytes.
type model struct {
	slots map[string]int    // live record key → slot
	items map[byte][][]byte // store → leaf bytes by slot
	free  map[byte][]int    // store → free slots, oldest first
	live  map[string][]byte // record key → value
}

func newModel() *model {
	return &model{slots: map[string]int{}, items: map[byte][][]byte{}, free: map[byte][]int{}, live: map[string][]byte{}}
}

// itemOf is a record's leaf bytes; a free slot's are an empty key and an
// empty value hash.
func itemOf(key, value []byte, free bool) []byte {
	if free {
		return []byte{0, 0}
	}
	var b []byte
	b = binary.AppendUvarint(b, uint64(len(key)))
	b = append(b, key...)
	h := sha256Sum(value)
	b = binary.AppendUvarint(b, uint64(len(h)))
	return append(b, h...)
}

func (m *model) write(key, value []byte, del bool) {
	k, s := string(key), key[0]
	slot, ok := m.slots[k]
	switch {
	case del && !ok:
		return
	case del:
		m.items[s][slot] = itemOf(nil, nil, true)
		m.free[s] = append(m.free[s], slot)
		delete(m.slots, k)
		delete(m.live, k)
		return
	case !ok && len(m.free[s]) > 0:
		slot, m.free[s] = m.free[s][0], m.free[s][1:]
		m.slots[k] = slot
	case !ok:
		slot = len(m.items[s])
		m.slots[k] = slot
		m.items[s] = append(m.items[s], nil)
	}
	m.items[s][slot] = itemOf(key, value, false)
	m.live[k] = value
}

func (m *model) roots() [][]byte {
	out := make([][]byte, len(wire.ProvableStores))
	for i, s := range wire.ProvableStores {
		out[i] = merkle.HashFromByteSlices(m.items[s.Prefix])
	}
	return out
}

// chain applies blocks of random writes to an in-memory state as the app
// does (Assign on the block's overlay, the LtHash over it, Update on an
// overlay above) and checks each block against the model.
type chain struct {
	t     testing.TB
	base  *store.Overlay
	lanes store.Lanes
	m     *model
	rng   *rand.Rand
	keys  [][]byte // every record key ever written
}

func newChain(t testing.TB, seed uint64) *chain {
	return &chain{t: t, base: store.NewOverlay(store.Empty{}), m: newModel(), rng: rand.New(rand.NewPCG(seed, 1))}
}

func (c *chain) randomKey() []byte {
	if len(c.keys) > 0 && c.rng.IntN(3) > 0 {
		return c.keys[c.rng.IntN(len(c.keys))]
	}
	s := wire.ProvableStores[c.rng.IntN(len(wire.ProvableStores))]
	k := binary.BigEndian.AppendUint64([]byte{s.Prefix}, c.rng.Uint64N(1<<20))
	c.keys = append(c.keys, k)
	return k
}

// block writes n random records (creates, updates, deletes, and an
// unprovable entry now and then) and returns the app hash.
func (c *chain) block(n int) []byte {
	bo := store.NewOverlay(c.base)
	for range n {
		k := c.randomKey()
		switch r := c.rng.IntN(10); {
		case r == 0:
			bo.Delete(k)
		case r == 1:
			bo.Set([]byte{store.PrefixTask, byte(c.rng.IntN(256))}, []byte("not provable"))
		default:
			v := make([]byte, 1+c.rng.IntN(64))
			for i := range v {
				v[i] = byte(c.rng.Uint32())
			}
			bo.Set(k, v)
		}
	}
	// The model sees the block's net writes, in key order, as Assign does.
	bo.Entries(func(k, val []byte, del bool) {
		if _, ok := wire.StoreOfKey(k); ok {
			c.m.write(append([]byte(nil), k...), val, del)
		}
	})
	ch := commitment.Assign(bo)
	c.lanes = store.ApplyOverlay(c.lanes, bo, c.base)
	tr := store.NewOverlay(bo)
	commitment.Update(tr, ch)
	got := commitment.Roots(tr)
	want := c.m.roots()
	for i := range got {
		if !bytes.Equal(got[i], want[i]) {
			c.t.Fatalf("store %s: root %x, the reference's %x", wire.ProvableStores[i].Name, got[i], want[i])
		}
	}
	tr.MergeInto(bo)
	bo.MergeInto(c.base)
	return commitment.AppHash(c.lanes.Sum(), got)
}

// TestTreesMatchCometBFTRoots: over many blocks of random creates, updates
// and deletes, each store's root is CometBFT's simple Merkle root of its
// leaves in slot order, every live record's proof verifies through
// CometBFT's default proof runtime (what `cometbft light` runs), and a
// rebuild from a scan of the hashed entries gives the same nodes and app
// hash.
func TestTreesMatchCometBFTRoots(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			c := newChain(t, seed)
			var app []byte
			for b := range 40 {
				app = c.block(1 + c.rng.IntN(30))
				if b%10 == 9 {
					c.checkProofs(app)
				}
			}
			c.checkRebuild(app)
		})
	}
}

func (c *chain) checkProofs(app []byte) {
	c.t.Helper()
	checked := 0
	for _, k := range c.keys {
		name, _ := wire.StoreOfKey(k)
		want, live := c.m.live[string(k)]
		v, ops, err := commitment.Prove(c.base, c.lanes.Sum(), name, k)
		if !live {
			if !errors.Is(err, commitment.ErrNotFound) {
				c.t.Fatalf("deleted or never written %x: %v", k, err)
			}
			continue
		}
		if err != nil || !bytes.Equal(v, want) {
			c.t.Fatalf("prove %x: %x, %v; want %x", k, v, err, want)
		}
		if err := wire.VerifyProof(app, name, k, v, ops); err != nil {
			c.t.Fatalf("proof of %x: %v", k, err)
		}
		checked++
	}
	if checked == 0 {
		c.t.Fatal("no live record to prove")
	}
}

func (c *chain) checkRebuild(app []byte) {
	c.t.Helper()
	var b commitment.Rebuilder
	var lanes store.Hasher
	stored := map[string][]byte{}
	c.base.Entries(func(k, v []byte, del bool) {
		switch {
		case del:
		case store.Hashed(k):
			b.Add(k, v)
			lanes.Add(k, v)
		default:
			stored[string(k)] = v
		}
	})
	rebuilt := 0
	var last []byte
	roots, err := b.Finish(func(k, v []byte) error {
		if last != nil && bytes.Compare(k, last) <= 0 {
			c.t.Fatalf("rebuilt node %x after %x: not in key order", k, last)
		}
		last = append(last[:0], k...)
		if !bytes.Equal(stored[string(k)], v) {
			c.t.Fatalf("rebuilt node %x = %x, the blocks wrote %x", k, v, stored[string(k)])
		}
		rebuilt++
		return nil
	})
	if err != nil {
		c.t.Fatal(err)
	}
	if rebuilt != len(stored) {
		c.t.Fatalf("rebuilt %d nodes, the blocks wrote %d", rebuilt, len(stored))
	}
	if got := commitment.AppHash(lanes.Lanes.Sum(), roots); !bytes.Equal(got, app) {
		c.t.Fatalf("rebuilt app hash %x, the blocks' %x", got, app)
	}
}

// TestProofRefusesEveryBitFlip: one flipped bit anywhere — the value, the
// key, the app hash, any byte of either proof op's key or data — and the
// proof no longer verifies.
func TestProofRefusesEveryBitFlip(t *testing.T) {
	p := provenRecord(t, 7, 6)
	app, name, key, value, ops := p.app, p.name, p.key, p.value, p.ops
	flips, same := 0, 0
	orig := make([]cmtcrypto.ProofOp, len(ops.Ops))
	for i, op := range ops.Ops {
		orig[i] = cmtcrypto.ProofOp{Type: op.Type, Key: bytes.Clone(op.Key), Data: bytes.Clone(op.Data)}
	}
	// sameProof: the flipped ops decode to the same key, leaf hash and
	// aunts, so they prove the same record in the same tree. Two kinds of
	// flip do that: one that turns a redundant field of the encoding (the
	// op's key repeated in its data, which CometBFT's decoder ignores) into
	// an unknown one, and one that changes the proof's Total or Index to
	// another pair whose path down the tree has the same shape (the root
	// is hashed from the leaf and the aunts alone: CometBFT's simple proof
	// binds the leaf, not its position).
	decode := func(op cmtcrypto.ProofOp) (merkle.ValueOp, bool) {
		dec, err := merkle.ValueOpDecoder(op)
		if err != nil {
			return merkle.ValueOp{}, false
		}
		return dec.(merkle.ValueOp), true
	}
	sameProof := func() bool {
		for i, op := range ops.Ops {
			a, ok1 := decode(op)
			b, ok2 := decode(orig[i])
			if !ok1 || !ok2 || !bytes.Equal(a.GetKey(), b.GetKey()) || !bytes.Equal(a.Proof.LeafHash, b.Proof.LeafHash) ||
				len(a.Proof.Aunts) != len(b.Proof.Aunts) {
				return false
			}
			for j := range a.Proof.Aunts {
				if !bytes.Equal(a.Proof.Aunts[j], b.Proof.Aunts[j]) {
					return false
				}
			}
		}
		return true
	}
	flip := func(what string, b []byte, check func() error) {
		for i := range b {
			for bit := range 8 {
				b[i] ^= 1 << bit
				err := check()
				unchanged := err == nil && sameProof()
				b[i] ^= 1 << bit
				switch {
				case unchanged:
					same++
				case err == nil:
					t.Fatalf("%s: byte %d bit %d flipped, and the proof still verifies", what, i, bit)
				}
				flips++
			}
		}
	}
	verify := func() error { return wire.VerifyProof(app, name, key, value, ops) }
	flip("value", value, verify)
	flip("key", key, verify)
	flip("app hash", app, verify)
	for i := range ops.Ops {
		flip(fmt.Sprintf("op %d key", i), ops.Ops[i].Key, verify)
		flip(fmt.Sprintf("op %d data", i), ops.Ops[i].Data, verify)
	}
	swapped := &cmtcrypto.ProofOps{Ops: []cmtcrypto.ProofOp{ops.Ops[1], ops.Ops[0]}}
	if wire.VerifyProof(app, name, key, value, swapped) == nil {
		t.Fatal("the ops in the wrong order verify")
	}
	t.Logf("%d single-bit flips: %d refused, %d prove the same leaf with the same aunts (a redundant tag, or a position of the same path shape); proof ops %d + %d bytes",
		flips, flips-same, same, len(ops.Ops[0].Data), len(ops.Ops[1].Data))
}

// TestProveRefusals: an unknown store, a key of another store and a record
// never written are refused with their own errors.
func TestProveRefusals(t *testing.T) {
	c := newChain(t, 3)
	c.block(10)
	for _, tc := range []struct {
		name string
		key  []byte
		want error
	}{
		{"tasks", wire.EpochKey(0), commitment.ErrUnknownStore},
		{wire.StoreWindow, wire.EpochKey(0), commitment.ErrNotInStore},
		{wire.StoreEpoch, wire.EpochKey(1 << 40), commitment.ErrNotFound},
		{wire.StoreEpoch, nil, commitment.ErrNotInStore},
	} {
		if _, _, err := commitment.Prove(c.base, c.lanes.Sum(), tc.name, tc.key); !errors.Is(err, tc.want) {
			t.Errorf("%s %x: %v, want %v", tc.name, tc.key, err, tc.want)
		}
	}
}

// TestWireKeysAreStateKeys pins app/wire's record keys (what clients ask
// for) to the state's own.
func TestWireKeysAreStateKeys(t *testing.T) {
	pairs := [][2][]byte{
		{wire.EpochKey(9), store.KeyEpoch(9)},
		{wire.SubmissionKey(7), store.KeySubmission(7)},
		{wire.WindowKey(store.WindowArena, 5), store.KeyWindow(store.WindowArena, 5)},
		{wire.GasAgentKey(3, 4), store.KeyGasAgent(3, 4)},
		{wire.CountersKey(), store.KeyCounters},
	}
	for _, p := range pairs {
		if !bytes.Equal(p[0], p[1]) {
			t.Errorf("wire key %x, state key %x", p[0], p[1])
		}
	}
	for _, s := range wire.ProvableStores {
		p, ok := store.PrefixOf([]byte{s.Prefix})
		if !ok || (!p.Score && s.Name != wire.StoreCounters) || p.Name != s.Name {
			t.Errorf("provable store %s: the layout has %+v at %#x", s.Name, p, s.Prefix)
		}
	}
	if tr, _ := wire.WindowTrack("workflow"); tr != store.WindowWorkflow {
		t.Error("workflow track byte")
	}
	if tr, _ := wire.WindowTrack("arena"); tr != store.WindowArena {
		t.Error("arena track byte")
	}
}

func sha256Sum(b []byte) []byte {
	h := sha256.Sum256(b)
	return h[:]
}

// proven is one live record of a random chain with its proof.
type proven struct {
	app, key, value []byte
	name            string
	ops             *cmtcrypto.ProofOps
}

// provenRecord runs blocks random blocks of a chain from seed and proves
// its first live record, checking that the proof verifies.
func provenRecord(t testing.TB, seed uint64, blocks int) proven {
	c := newChain(t, seed)
	var p proven
	for range blocks {
		p.app = c.block(25)
	}
	for _, k := range c.keys {
		if _, ok := c.m.live[string(k)]; ok {
			p.key = k
			break
		}
	}
	p.name, _ = wire.StoreOfKey(p.key)
	var err error
	if p.value, p.ops, err = commitment.Prove(c.base, c.lanes.Sum(), p.name, p.key); err != nil {
		t.Fatal(err)
	}
	if err := wire.VerifyProof(p.app, p.name, p.key, p.value, p.ops); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFreedSlotsAreTakenAgain: records created every block and deleted
// three blocks later, as retention does, keep each tree at the most
// records held at once: a deleted record's slot goes to the next new one,
// so the leaves, and the nodes over them, stop growing.
func TestFreedSlotsAreTakenAgain(t *testing.T) {
	base := store.NewOverlay(store.Empty{})
	var lanes store.Lanes
	const perBlock, kept = 50, 3
	for b := range 40 {
		bo := store.NewOverlay(base)
		for i := range perBlock {
			bo.Create(wire.SubmissionKey(uint64(b*perBlock+i)), []byte{byte(b), byte(i)})
			if b >= kept {
				bo.Delete(wire.SubmissionKey(uint64((b-kept)*perBlock + i)))
			}
		}
		ch := commitment.Assign(bo)
		lanes = store.ApplyOverlay(lanes, bo, base)
		commitment.Update(bo, ch)
		bo.MergeInto(base)
	}
	var leaves uint64
	nodes := 0
	base.Entries(func(k, v []byte, del bool) {
		switch {
		case del:
		case k[0] == store.PrefixRecordCount && k[1] == wire.ProvableStores[3].Prefix:
			leaves = binary.BigEndian.Uint64(v)
		case k[0] == store.PrefixRecordNode:
			nodes++
		}
	})
	if most := uint64((kept + 1) * perBlock); leaves > most {
		t.Fatalf("the submission tree has %d leaves for at most %d records held at once", leaves, most)
	}
	if nodes > 2*int(leaves) {
		t.Fatalf("%d nodes for %d leaves", nodes, leaves)
	}
	t.Logf("%d blocks of %d records, each kept %d blocks: %d leaves, %d nodes", 40, perBlock, kept, leaves, nodes)
}
