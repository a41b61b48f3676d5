package snapshot

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
)

// recordState is a state with records in every provable store, their
// slots and the stores' counts, and other entries around them.
func recordState(seed uint64) []Entry {
	rng := newRng(seed)
	es := randomState(rng, 60, 0)
	for i := range 90 {
		s := wire.ProvableStores[i%len(wire.ProvableStores)]
		es = append(es, Entry{binary.BigEndian.AppendUint64([]byte{s.Prefix}, rng.Uint64N(1<<30)), randBytes(rng, 1+rng.IntN(200))})
	}
	return withSlots(es)
}

// TestRoundTripRebuildsTrees: a snapshot carries records and their slots
// but no tree node; the restore makes every node again (after the entries,
// in key order), and the app hash over the rebuilt roots is the trusted one.
func TestRoundTripRebuildsTrees(t *testing.T) {
	es := recordState(11)
	dir := t.TempDir()
	mustCreate(t, dir, es, 9, 1024)
	sink := &mapSink{}
	r, err := RestoreDir(dir, 9, appHashOf(es), sink)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Done() || !sameEntries(sink.entries, es) || sink.nodes < 90 {
		t.Fatalf("restored %d entries (want %d) and %d nodes", len(sink.entries), len(es), sink.nodes)
	}
}

// TestRestoreRefusesMovedSlots: two records' slots swapped (every entry
// well formed, the LtHash recomputed for the forged state) give other
// roots: the restore refuses the snapshot against the trusted app hash.
// A tree node inside a chunk is refused as an entry outside the hashed set.
func TestRestoreRefusesMovedSlots(t *testing.T) {
	es := recordState(12)
	trusted := appHashOf(es)
	var slots []int
	for i, e := range es {
		if e.Key[0] == store.PrefixRecordSlot && e.Key[1] == wire.ProvableStores[0].Prefix {
			slots = append(slots, i)
		}
	}
	forged := append([]Entry(nil), es...)
	a, b := slots[0], slots[1]
	forged[a].Value, forged[b].Value = es[b].Value, es[a].Value
	dir := t.TempDir()
	mustCreate(t, dir, forged, 9, 1024)
	_, err := RestoreDir(dir, 9, trusted, &mapSink{})
	wantErr(t, err, ErrAppHash)

	node := Entry{[]byte{store.PrefixRecordNode, 0x11, 0, 0, 0, 0, 0, 0, 0, 0, 0}, bytes.Repeat([]byte{1}, 32)}
	_, err = applyAll(mustRestorer(t, [][]byte{stream(node)}, 1, trusted), [][]byte{stream(node)})
	wantErr(t, err, ErrMetaKey)
}

func mustRestorer(t *testing.T, chunks [][]byte, entries uint64, trusted []byte) *Restorer {
	t.Helper()
	r, err := NewRestorer(crafted(chunks, entries, trusted), trusted, &mapSink{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}
