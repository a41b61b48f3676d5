package client

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/x/mirror"
)

// aliceSeed is substrate's //Alice secret seed; subkey inspect gives its
// sr25519 public key and ss58 address below.
const (
	aliceSeed   = "e5be9a5092b81bca64be81d212e7f2f9eba183bb7a90954f7b76361f6edb5c0a"
	alicePublic = "d43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d"
	aliceSS58   = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"
)

// TestSignBinding: the seed expands to //Alice's published key, and its
// binding signature verifies with x/mirror for exactly that binding.
func TestSignBinding(t *testing.T) {
	seed, err := DecodeHex32("seed", "0x"+aliceSeed)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := HotkeyFromSeed(seed)
	if err != nil || hex.EncodeToString(pub[:]) != alicePublic {
		t.Fatalf("//Alice public key %x (%v), want %s", pub, err, alicePublic)
	}
	h := sha256.Sum256([]byte("tx key"))
	txKey := ed25519.NewKeyFromSeed(h[:]).Public().(ed25519.PublicKey)
	view, err := SignBindingView(seed, "subnet-1", 7, txKey, 720)
	if err != nil || view.Hotkey != aliceSS58 || view.HotkeyHex != alicePublic {
		t.Fatalf("view %+v (%v)", view, err)
	}
	sig, err := DecodeSignature(view.Signature)
	if err != nil {
		t.Fatal(err)
	}
	var tk [mirror.TxKeySize]byte
	copy(tk[:], txKey)
	if err := mirror.VerifyBinding(pub, mirror.BindingMessage("subnet-1", 7, tk, 720), sig); err != nil {
		t.Fatalf("the binding signature does not verify: %v", err)
	}
	if mirror.VerifyBinding(pub, mirror.BindingMessage("subnet-1", 7, tk, 721), sig) == nil {
		t.Fatal("the signature verifies for another parent block")
	}
	if _, err := SignBinding(seed, "c", 1, txKey[:31], 1); err == nil {
		t.Fatal("a 31-byte tx key was signed")
	}
}

// TestDecodeSnapshotFile: entries sorted by uid, the parent block from the
// file or the argument, and each refusal.
func TestDecodeSnapshotFile(t *testing.T) {
	s, err := DecodeSnapshotFile([]byte(`{"entries": [{"uid": 3, "hotkey": "`+aliceSS58+`", "registered_block": 5},
		{"uid": 1, "hotkey": "`+aliceSS58+`", "registered_block": 2}]}`), 360)
	if err != nil || s.ParentBlock != 360 || len(s.Entries) != 2 || s.Entries[0].UID != 1 || s.Entries[1].RegisteredBlock != 5 ||
		hex.EncodeToString(s.Entries[0].Hotkey[:]) != alicePublic {
		t.Fatalf("snapshot %+v (%v)", s, err)
	}
	if msg := AttestMetagraph(s, true).GetAttestMetagraph(); msg.ParentBlock != 360 || len(msg.Snapshot) != mirror.EncodedSize(2) {
		t.Fatalf("attestation %+v", msg)
	}
	if msg := AttestMetagraph(s, false).GetAttestMetagraph(); msg.Snapshot != nil || len(msg.Digest) != 32 {
		t.Fatalf("digest-only attestation %+v", msg)
	}
	for _, bad := range []struct{ json, want string }{
		{`{"parent_block": 720, "entries": []}`, "not 360"},
		{`{"entries": [{"uid": 1, "hotkey": "nope", "registered_block": 1}]}`, "entries[0]"},
		{`{"entries": [{"uid": 1, "hotkey": "` + aliceSS58 + `"}, {"uid": 1, "hotkey": "` + aliceSS58 + `"}]}`, "duplicate"},
		{`{"entries": [], "extra": 1}`, "unknown field"},
		{`{"entries": [{"uid": 1, "hotkey": "` + aliceSS58 + `", "registered_block": 361}]}`, "registered after"},
	} {
		if _, err := DecodeSnapshotFile([]byte(bad.json), 360); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: error %v, want one naming %q", bad.json, err, bad.want)
		}
	}
}
