package mirror

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"testing"
)

func hk(b byte) (k [32]byte) {
	for i := range k {
		k[i] = b
	}
	return k
}

func TestSnapshotEncodingLayout(t *testing.T) {
	s := Snapshot{ParentBlock: 0x0102030405060708, Entries: []Entry{
		{UID: 1, Hotkey: hk(0xaa), RegisteredBlock: 5},
		{UID: 0x0a0b, Hotkey: hk(0xbb), RegisteredBlock: 0x0102030405060708},
	}}
	ka, kb := hk(0xaa), hk(0xbb)
	want := []byte("validatord/mirror/snapshot/v1\x00")
	want = append(want, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 2)
	want = append(want, 0, 0, 0, 1)
	want = append(want, ka[:]...)
	want = append(want, 0, 0, 0, 0, 0, 0, 0, 5)
	want = append(want, 0, 0, 0x0a, 0x0b)
	want = append(want, kb[:]...)
	want = append(want, 1, 2, 3, 4, 5, 6, 7, 8)
	got := s.Encode()
	if string(got) != string(want) {
		t.Fatalf("Encode =\n%x\nwant\n%x", got, want)
	}
	if len(got) != EncodedSize(2) {
		t.Fatalf("len = %d, EncodedSize(2) = %d", len(got), EncodedSize(2))
	}
	d := sha256.Sum256(append([]byte("validatord/mirror/snapshot-digest/v1\x00"), want...))
	if s.Digest() != d {
		t.Fatalf("Digest = %x, want %x", s.Digest(), d)
	}
	// The empty snapshot at block 0 has a fixed digest (computed with
	// printf and sha256sum over the tags and 12 zero bytes); it pins the tags
	// and the layout (a change of either is a consensus change).
	const emptyDigest = "5548b4eedc05989d50a2ad51935ed0c882d36540a685a237d9e627fcf2ad6e76"
	empty := Snapshot{}.Digest()
	if got := hex.EncodeToString(empty[:]); got != emptyDigest {
		t.Fatalf("empty digest = %s, want %s", got, emptyDigest)
	}
}

func TestSnapshotDigestMovesWithEveryField(t *testing.T) {
	base := Snapshot{ParentBlock: 100, Entries: []Entry{{UID: 1, Hotkey: hk(1), RegisteredBlock: 50}}}
	d := base.Digest()
	variants := []Snapshot{
		{ParentBlock: 101, Entries: base.Entries},
		{ParentBlock: 100, Entries: []Entry{{UID: 2, Hotkey: hk(1), RegisteredBlock: 50}}},
		{ParentBlock: 100, Entries: []Entry{{UID: 1, Hotkey: hk(2), RegisteredBlock: 50}}},
		{ParentBlock: 100, Entries: []Entry{{UID: 1, Hotkey: hk(1), RegisteredBlock: 51}}},
		{ParentBlock: 100},
	}
	for i, v := range variants {
		if v.Digest() == d {
			t.Errorf("variant %d has the same digest", i)
		}
	}
}

func TestSnapshotValidate(t *testing.T) {
	p := Params{MaxEntries: 4, AttestationBlocks: 1, MaxBlocksBehind: 2}
	e := func(uid uint32, reg uint64) Entry {
		return Entry{UID: uid, Hotkey: hk(byte(uid)), RegisteredBlock: reg}
	}
	tests := []struct {
		name    string
		entries []Entry
		want    error
		index   int
	}{
		{"empty", nil, nil, 0},
		{"full and sorted", []Entry{e(0, 1), e(1, 1), e(2, 1), e(3, 10)}, nil, 0},
		{"sparse uids", []Entry{e(0, 1), e(3, 1)}, nil, 0},
		{"too many", []Entry{e(0, 1), e(1, 1), e(2, 1), e(3, 1), e(3, 1)}, ErrTooManyEntries, -1},
		{"unsorted", []Entry{e(0, 1), e(2, 1), e(1, 1)}, ErrUnsorted, 2},
		{"duplicate", []Entry{e(0, 1), e(1, 1), e(1, 2)}, ErrDuplicateUID, 2},
		{"uid at max_entries", []Entry{e(0, 1), e(4, 1)}, ErrUIDOutOfRange, 1},
		{"uid far out", []Entry{e(1<<31, 1)}, ErrUIDOutOfRange, 0},
		{"registered after the parent block", []Entry{e(0, 11)}, ErrRegisteredAfterParent, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Snapshot{ParentBlock: 10, Entries: tt.entries}
			err := s.Validate(p)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				if got, err := Decode(s.Encode(), p); err != nil || got.Digest() != s.Digest() {
					t.Fatalf("valid snapshot does not decode back: %v", err)
				}
				return
			}
			var se *SnapshotError
			if !errors.As(err, &se) || !errors.Is(err, tt.want) || !errors.Is(err, ErrInvalidInput) || se.Index != tt.index {
				t.Fatalf("err = %v, want %v at %d", err, tt.want, tt.index)
			}
			if _, err := Decode(s.Encode(), p); !errors.Is(err, tt.want) {
				t.Fatalf("Decode: err = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestDecodeMalformed(t *testing.T) {
	p := DefaultParams()
	good := Snapshot{ParentBlock: 10, Entries: []Entry{{UID: 1, Hotkey: hk(1), RegisteredBlock: 2}}}.Encode()
	badTag := append([]byte(nil), good...)
	badTag[0] = 'V'
	hugeCount := append([]byte(nil), good[:headerSize]...)
	hugeCount[headerSize-4] = 0xff
	countTwo := append([]byte(nil), good...)
	countTwo[headerSize-1] = 2
	tests := []struct {
		name string
		b    []byte
		want error
	}{
		{"nil", nil, ErrMalformed},
		{"tag only", []byte(SnapshotTag), ErrMalformed},
		{"header cut", good[:headerSize-1], ErrMalformed},
		{"another tag", badTag, ErrMalformed},
		{"trailing byte", append(append([]byte(nil), good...), 0), ErrMalformed},
		{"entry cut", good[:len(good)-1], ErrMalformed},
		{"count above max_entries", hugeCount, ErrTooManyEntries},
		{"count says two, one follows", countTwo, ErrMalformed},
	}
	for _, tt := range tests {
		if _, err := Decode(tt.b, p); !errors.Is(err, tt.want) || !errors.Is(err, ErrInvalidInput) {
			t.Errorf("%s: err = %v, want %v", tt.name, err, tt.want)
		}
	}
}

// randSnapshot draws a valid snapshot: a random subset of uids below
// max_entries, in order, hotkeys from a small alphabet so that equal
// hotkeys occur.
func randSnapshot(r *rand.Rand, p Params, parent uint64) Snapshot {
	s := Snapshot{ParentBlock: parent}
	keep := r.IntN(4) // 0: empty-ish, 3: dense
	for uid := uint32(0); uid < p.MaxEntries; uid++ {
		if r.IntN(4) < keep || (keep > 0 && r.IntN(8) == 0) {
			s.Entries = append(s.Entries, Entry{UID: uid, Hotkey: hk(byte(r.IntN(6))), RegisteredBlock: r.Uint64N(parent + 1)})
		}
	}
	return s
}

// TestPropertySnapshotCanonical: every valid snapshot decodes from its
// encoding to itself, and Lookup finds exactly its uids.
func TestPropertySnapshotCanonical(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 17))
	p := Params{MaxEntries: 32, AttestationBlocks: 1, MaxBlocksBehind: 2}
	for i := 0; i < 2000; i++ {
		s := randSnapshot(r, p, r.Uint64N(1000))
		if err := s.Validate(p); err != nil {
			t.Fatalf("generator made an invalid snapshot: %v", err)
		}
		b := s.Encode()
		got, err := Decode(b, p)
		if err != nil || string(got.Encode()) != string(b) || len(got.Entries) != len(s.Entries) {
			t.Fatalf("round trip: %v", err)
		}
		in := map[uint32]Entry{}
		for _, e := range s.Entries {
			in[e.UID] = e
		}
		for uid := uint32(0); uid <= p.MaxEntries; uid++ {
			e, ok := s.Lookup(uid)
			if want, wok := in[uid]; ok != wok || e != want {
				t.Fatalf("Lookup(%d) = %v, %v; want %v, %v", uid, e, ok, want, wok)
			}
		}
	}
}
