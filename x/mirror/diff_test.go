package mirror

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestDiff(t *testing.T) {
	a, b := hk(1), hk(2)
	old := Snapshot{ParentBlock: 720, Entries: []Entry{
		{UID: 0, Hotkey: a, RegisteredBlock: 10},
		{UID: 1, Hotkey: b, RegisteredBlock: 20},
		{UID: 2, Hotkey: a, RegisteredBlock: 30},
		{UID: 4, Hotkey: b, RegisteredBlock: 40},
	}}
	next := Snapshot{ParentBlock: 1080, Entries: []Entry{
		{UID: 0, Hotkey: a, RegisteredBlock: 10},   // same: kept
		{UID: 1, Hotkey: a, RegisteredBlock: 900},  // new hotkey: reset
		{UID: 2, Hotkey: a, RegisteredBlock: 800},  // same hotkey, registered again: reset
		{UID: 3, Hotkey: b, RegisteredBlock: 1000}, // appeared: listed
		// uid 4 disappeared: reset
	}}
	if got, want := Diff(old, next), []uint32{1, 2, 3, 4}; !slices.Equal(got, want) {
		t.Fatalf("Diff = %v, want %v", got, want)
	}
	if got := Diff(old, old); len(got) != 0 {
		t.Fatalf("Diff(s, s) = %v", got)
	}
	if got := Diff(Snapshot{}, old); !slices.Equal(got, []uint32{0, 1, 2, 4}) {
		t.Fatalf("Diff from empty = %v", got)
	}
	// The parent block alone changes nothing.
	moved := old
	moved.ParentBlock = 99999
	if got := Diff(old, moved); len(got) != 0 {
		t.Fatalf("Diff across blocks with equal entries = %v", got)
	}
}

// naiveDiff is the specification: every uid in either snapshot whose
// entry is not the same in both, sorted.
func naiveDiff(old, new Snapshot) []uint32 {
	o, n := map[uint32]Entry{}, map[uint32]Entry{}
	for _, e := range old.Entries {
		o[e.UID] = e
	}
	for _, e := range new.Entries {
		n[e.UID] = e
	}
	var out []uint32
	for uid, e := range o {
		if ne, ok := n[uid]; !ok || ne != e {
			out = append(out, uid)
		}
	}
	for uid := range n {
		if _, ok := o[uid]; !ok {
			out = append(out, uid)
		}
	}
	slices.Sort(out)
	return out
}

// TestPropertyDiffMatchesNaive: Diff equals the naive map diff on random
// valid snapshots, where next is old with random changes (as on the parent
// chain: most uids keep their holder between two attestations).
func TestPropertyDiffMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 13))
	p := Params{MaxEntries: 24, AttestationBlocks: 1, MaxBlocksBehind: 2}
	for i := 0; i < 5000; i++ {
		old := randSnapshot(r, p, 1000)
		var next Snapshot
		if i%5 == 0 {
			next = randSnapshot(r, p, 2000) // unrelated
		} else {
			next = mutate(r, old, p)
		}
		got, want := Diff(old, next), naiveDiff(old, next)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: Diff = %v, naive = %v\nold %v\nnew %v", i, got, want, old.Entries, next.Entries)
		}
		if len(Diff(next, old)) != len(got) {
			t.Fatalf("round %d: Diff is not symmetric in its uids", i)
		}
	}
}

// mutate copies s to the next parent block, changing a few entries.
func mutate(r *rand.Rand, s Snapshot, p Params) Snapshot {
	out := Snapshot{ParentBlock: s.ParentBlock + 360}
	present := map[uint32]bool{}
	for _, e := range s.Entries {
		present[e.UID] = true
		switch r.IntN(10) {
		case 0: // deregistered
			continue
		case 1: // new hotkey
			e.Hotkey, e.RegisteredBlock = hk(byte(6+r.IntN(3))), s.ParentBlock+1
		case 2: // same hotkey registered again
			e.RegisteredBlock = s.ParentBlock + 1
		}
		out.Entries = append(out.Entries, e)
	}
	for uid := uint32(0); uid < p.MaxEntries; uid++ {
		if !present[uid] && r.IntN(4) == 0 {
			out.Entries = append(out.Entries, Entry{UID: uid, Hotkey: hk(9), RegisteredBlock: out.ParentBlock})
		}
	}
	slices.SortFunc(out.Entries, func(a, b Entry) int { return int(a.UID) - int(b.UID) })
	return out
}
