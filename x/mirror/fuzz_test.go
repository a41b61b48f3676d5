package mirror

import (
	"errors"
	"testing"
)

// FuzzDecodeSnapshot drives Decode with arbitrary bytes and limits: it
// never panics; what it accepts passes Validate and is exactly Encode of the
// result (so the digest of accepted bytes is unique); what it refuses is an
// ErrInvalidInput. The seed corpus is in testdata/fuzz/FuzzDecodeSnapshot:
// valid snapshots, and each refusal of TestDecodeMalformed and
// TestSnapshotValidate in encoded form.
func FuzzDecodeSnapshot(f *testing.F) {
	f.Add(Snapshot{ParentBlock: 720, Entries: []Entry{{UID: 0, Hotkey: hk(1), RegisteredBlock: 5}}}.Encode(), uint32(4))
	f.Add([]byte{}, uint32(1))
	f.Fuzz(func(t *testing.T, b []byte, maxEntries uint32) {
		p := Params{MaxEntries: maxEntries%MaxEntriesLimit + 1, AttestationBlocks: 1, MaxBlocksBehind: 2}
		s, err := Decode(b, p)
		if err != nil {
			if !errors.Is(err, ErrInvalidInput) {
				t.Fatalf("refusal without ErrInvalidInput: %v", err)
			}
			return
		}
		if err := s.Validate(p); err != nil {
			t.Fatalf("Decode accepted an invalid snapshot: %v", err)
		}
		if string(s.Encode()) != string(b) {
			t.Fatalf("accepted bytes are not canonical:\n%x\n%x", b, s.Encode())
		}
		if len(b) != EncodedSize(len(s.Entries)) {
			t.Fatalf("len %d, EncodedSize %d", len(b), EncodedSize(len(s.Entries)))
		}
		if len(Diff(s, s)) != 0 {
			t.Fatal("Diff(s, s) is not empty")
		}
	})
}

// FuzzDecodeSS58: DecodeSS58 never panics, and what it accepts encodes
// back to the same address. The seed corpus is in testdata/fuzz/FuzzDecodeSS58.
func FuzzDecodeSS58(f *testing.F) {
	for _, v := range ss58Vectors {
		f.Add(v.addr)
	}
	f.Fuzz(func(t *testing.T, addr string) {
		prefix, key, err := DecodeSS58(addr)
		if err != nil {
			if !errors.Is(err, ErrInvalidInput) {
				t.Fatalf("refusal without ErrInvalidInput: %v", err)
			}
			return
		}
		back, err := EncodeSS58(prefix, key)
		if err != nil || back != addr {
			t.Fatalf("%q decoded to %d/%x, encodes to %q (%v)", addr, prefix, key, back, err)
		}
	})
}

// FuzzVerifyBinding feeds arbitrary keys, messages and signatures to the
// sr25519 path: it never panics, refuses with ErrInvalidInput (no key) or
// ErrBadSignature, and whatever it accepts also verifies again (it is a
// pure function). The seed corpus (testdata/fuzz/FuzzVerifyBinding) holds
// the published vectors of binding_test.go and mutations of them.
func FuzzVerifyBinding(f *testing.F) {
	f.Add(make([]byte, 32), []byte("m"), make([]byte, 64))
	f.Fuzz(func(t *testing.T, key, msg, sig []byte) {
		var k [32]byte
		var s [64]byte
		copy(k[:], key)
		copy(s[:], sig)
		err := VerifyBinding(k, msg, s)
		if err != nil && !errors.Is(err, ErrInvalidInput) && !errors.Is(err, ErrBadSignature) {
			t.Fatalf("unexpected error: %v", err)
		}
		if err == nil && VerifyBinding(k, msg, s) != nil {
			t.Fatal("accepted once, refused the second time")
		}
	})
}
