package mirror

import (
	"encoding/hex"
	"errors"
	"testing"

	schnorrkel "github.com/ChainSafe/go-schnorrkel"
)

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func key32(t *testing.T, s string) (k [32]byte) {
	t.Helper()
	copy(k[:], unhex(t, s))
	return k
}

func sig64(t *testing.T, s string) (k [64]byte) {
	t.Helper()
	copy(k[:], unhex(t, s))
	return k
}

// Externally produced sr25519 vectors: each was signed by another
// implementation in substrate's "substrate" signing context.
var srVectors = []struct {
	source string
	pub    string // hex, or an ss58 address
	msg    string
	sig    string
	// wrapped: the signer wrapped msg in <Bytes>…</Bytes> (polkadot.js);
	// msg is what was handed to it.
	wrapped bool
}{
	{
		// schnorrkel (Rust) via the C bindings of Warchant/sr25519-crust,
		// test/ds.cpp; also go-schnorrkel's TestVerify_rust.
		source: "sr25519-crust test/ds.cpp",
		pub:    "46ebddef8cd9bb167dc30878d7113b7e168e6f0646beffd77d69d39bad76b47a",
		msg:    "this is a message",
		sig:    "4e172314444b8f820bb54c22e95076f220ed25373e5c178234aa6c211d29271244b947e3ff3418ff6b45fd1df1140c8cbff69fc58ee6dc96df70936a2bb74b82",
	},
	{
		// Alice (//Alice, d43593…da27d) signing through polkadot.js, which
		// wrapped the string "0x46fb7408d4f285228f4af516ea25851b"; the
		// vector of use-ink/ink integration-tests/sr25519-verification/lib.rs
		// (test_sr25519_verify_valid), given there as byte arrays of the
		// wrapped message, the key and the signature.
		source:  "use-ink/ink integration-tests/sr25519-verification",
		pub:     "d43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d",
		msg:     "0x46fb7408d4f285228f4af516ea25851b",
		sig:     "0a7da2b631704cdcfe93c740e41217b9ac667a0c8755d8da1a8232db527f487c87e780d2edc1896aeb6b1bef0bc7c38d9df2135b633eab8bfb1777e82fad3a8f",
		wrapped: true,
	},
	{
		// A signature that polkadot.js' signatureVerify accepts in
		// logion-network/logion-backend-ts,
		// test/unit/services/util-crypto.spec.ts: the key is given as a
		// Bittensor-style (prefix 42) ss58 address, the message signed raw.
		source: "logion-backend-ts util-crypto.spec.ts",
		pub:    "5Gv8YYFu8H1btvmrJy9FjjAWfb99wrhV3uhPFoNEr918utyR",
		msg:    "test message\n",
		sig:    "22f91b41ba12f8663ddce26bfc90dbfe6a51683fd3782ad679ab2a5fdbe7d44c2a119f22c74eea22555e5483eb7f42b828f189a38379d59c3b607d2461f0858e",
	},
}

// vectorKey reads a vector's key, hex or ss58 (prefix 42).
func vectorKey(t *testing.T, s string) [32]byte {
	t.Helper()
	if len(s) == 64 {
		return key32(t, s)
	}
	k, err := HotkeyFromSS58(s, BittensorSS58Prefix)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestVerifyPublishedVectors(t *testing.T) {
	for _, v := range srVectors {
		t.Run(v.source, func(t *testing.T) {
			pub, sig, msg := vectorKey(t, v.pub), sig64(t, v.sig), []byte(v.msg)
			if err := VerifyBinding(pub, msg, sig); err != nil {
				t.Fatalf("the published signature does not verify: %v", err)
			}
			if v.wrapped {
				// What the signer signed is the wrapped message: it verifies
				// as a raw message too.
				if err := VerifyBinding(pub, Wrap(msg), sig); err != nil {
					t.Fatalf("the wrapped bytes do not verify raw: %v", err)
				}
			}
			assertMutationsFail(t, pub, msg, sig)
		})
	}
}

// assertMutationsFail flips one bit of each of the key, the message and
// the signature, and appends a byte to the message: none verifies.
func assertMutationsFail(t *testing.T, pub [32]byte, msg []byte, sig [64]byte) {
	t.Helper()
	for _, i := range []int{0, 7, 31} {
		p := pub
		p[i] ^= 0x01
		if err := VerifyBinding(p, msg, sig); err == nil {
			t.Errorf("key bit %d flipped: verified", i)
		}
	}
	for _, i := range []int{0, len(msg) / 2, len(msg) - 1} {
		m := append([]byte(nil), msg...)
		m[i] ^= 0x01
		if err := VerifyBinding(pub, m, sig); !errors.Is(err, ErrBadSignature) {
			t.Errorf("message byte %d flipped: %v, want ErrBadSignature", i, err)
		}
	}
	if err := VerifyBinding(pub, append(append([]byte(nil), msg...), 0), sig); !errors.Is(err, ErrBadSignature) {
		t.Errorf("message extended: %v", err)
	}
	for _, i := range []int{0, 31, 32, 62} {
		s := sig
		s[i] ^= 0x01
		if err := VerifyBinding(pub, msg, s); !errors.Is(err, ErrBadSignature) {
			t.Errorf("signature byte %d flipped: %v, want ErrBadSignature", i, err)
		}
	}
	s := sig
	s[63] &^= 0x80 // not marked as schnorrkel: an ed25519-style signature
	if err := VerifyBinding(pub, msg, s); !errors.Is(err, ErrBadSignature) {
		t.Errorf("unmarked signature: %v, want ErrBadSignature", err)
	}
}

func TestVerifyBindingInvalidKey(t *testing.T) {
	var notAPoint [32]byte
	for i := range notAPoint {
		notAPoint[i] = 0xff // not a canonical Ristretto encoding
	}
	err := VerifyBinding(notAPoint, []byte("m"), [64]byte{63: 0x80})
	var ie *InputError
	if !errors.As(err, &ie) || ie.Field != "hotkey" || !errors.Is(err, ErrInvalidInput) {
		t.Fatalf("err = %v, want a hotkey InputError", err)
	}
}

// hotkey is a fresh sr25519 key pair from go-schnorrkel, as a hotkey.
type hotkey struct {
	sk  *schnorrkel.SecretKey
	pub [32]byte
}

func newHotkey(t testing.TB) hotkey {
	t.Helper()
	sk, pk, err := schnorrkel.GenerateKeypair()
	if err != nil {
		t.Fatal(err)
	}
	return hotkey{sk: sk, pub: pk.Encode()}
}

func (h hotkey) sign(t testing.TB, msg []byte) [64]byte {
	t.Helper()
	s, err := h.sk.Sign(schnorrkel.NewSigningContext([]byte(SigningContext), msg))
	if err != nil {
		t.Fatal(err)
	}
	return s.Encode()
}

func TestBindingRoundTrip(t *testing.T) {
	h := newHotkey(t)
	var tx [32]byte
	tx[0] = 9
	msg := BindingMessage("subnet-test", 7, tx, 3600)
	raw, wrapped := h.sign(t, msg), h.sign(t, Wrap(msg))
	for name, sig := range map[string][64]byte{"raw": raw, "wrapped": wrapped} {
		if err := VerifyBinding(h.pub, msg, sig); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		assertMutationsFail(t, h.pub, msg, sig)
		if err := VerifyBinding(newHotkey(t).pub, msg, sig); !errors.Is(err, ErrBadSignature) {
			t.Errorf("%s: another hotkey verified: %v", name, err)
		}
	}
	// Twice wrapped is not accepted: only one wrapping is undone.
	if err := VerifyBinding(h.pub, msg, h.sign(t, Wrap(Wrap(msg)))); !errors.Is(err, ErrBadSignature) {
		t.Errorf("double wrapping: %v", err)
	}
	// Another signing context (a non-substrate signer) is refused.
	other, err := h.sk.Sign(schnorrkel.NewSigningContext([]byte("example"), msg))
	if err != nil {
		t.Fatal(err)
	}
	if err := VerifyBinding(h.pub, msg, other.Encode()); !errors.Is(err, ErrBadSignature) {
		t.Errorf("signing context %q: %v", "example", err)
	}
}

func TestBindingMessageLayout(t *testing.T) {
	var tx [32]byte
	for i := range tx {
		tx[i] = byte(i)
	}
	got := BindingMessage("ab", 0x01020304, tx, 0x0a0b0c0d0e0f1011)
	want := []byte("validatord/mirror/bind/v1\x00")
	want = append(want, 0, 0, 0, 0, 0, 0, 0, 2, 'a', 'b', 1, 2, 3, 4)
	want = append(want, tx[:]...)
	want = append(want, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11)
	if string(got) != string(want) {
		t.Fatalf("BindingMessage =\n%x\nwant\n%x", got, want)
	}
	// Each field moves the message.
	base := string(got)
	for name, m := range map[string][]byte{
		"chain id":     BindingMessage("ac", 0x01020304, tx, 0x0a0b0c0d0e0f1011),
		"chain id len": BindingMessage("ab\x01", 0x01020304, tx, 0x0a0b0c0d0e0f1011),
		"uid":          BindingMessage("ab", 0x01020305, tx, 0x0a0b0c0d0e0f1011),
		"tx key":       BindingMessage("ab", 0x01020304, [32]byte{}, 0x0a0b0c0d0e0f1011),
		"parent block": BindingMessage("ab", 0x01020304, tx, 0x0a0b0c0d0e0f1012),
	} {
		if string(m) == base {
			t.Errorf("%s does not change the message", name)
		}
	}
	if w := string(Wrap([]byte("x"))); w != "<Bytes>x</Bytes>" {
		t.Errorf("Wrap = %q", w)
	}
}

func TestCheckBinding(t *testing.T) {
	p := DefaultParams() // max_blocks_behind 7200
	h, other := newHotkey(t), newHotkey(t)
	final := Snapshot{ParentBlock: 36000, Entries: []Entry{
		{UID: 3, Hotkey: other.pub, RegisteredBlock: 10},
		{UID: 7, Hotkey: h.pub, RegisteredBlock: 30000},
	}}
	var tx [32]byte
	tx[5] = 1
	bind := func(signer hotkey, uid uint32, pb uint64) Binding {
		return Binding{UID: uid, TxKey: tx, ParentBlock: pb, Signature: signer.sign(t, BindingMessage("c", uid, tx, pb))}
	}
	tests := []struct {
		name string
		b    Binding
		want error
	}{
		{"at the final block", bind(h, 7, 36000), nil},
		{"max_blocks_behind behind", bind(other, 3, 36000-7200), nil},
		{"max_blocks_behind ahead", bind(h, 7, 36000+7200), nil},
		{"at the registration block", bind(h, 7, 30000), nil},
		{"one block too old", bind(other, 3, 36000-7201), ErrStaleBinding},
		{"one block too far ahead", bind(h, 7, 36000+7201), ErrStaleBinding},
		{"before the registration", bind(h, 7, 29999), ErrSignedBeforeRegistration},
		{"uid not in the snapshot", bind(h, 8, 36000), ErrUnknownUID},
		{"signed by another uid's hotkey", bind(other, 7, 36000), ErrBadSignature},
		{"signature for another uid", func() Binding { b := bind(h, 7, 36000); b.UID = 3; return b }(), ErrBadSignature},
		{"signature for another tx key", func() Binding { b := bind(h, 7, 36000); b.TxKey[0] ^= 1; return b }(), ErrBadSignature},
		{"signature at another block", func() Binding { b := bind(h, 7, 36000); b.ParentBlock++; return b }(), ErrBadSignature},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckBinding("c", tt.b, final, p)
			if (tt.want == nil) != (err == nil) || (tt.want != nil && !errors.Is(err, tt.want)) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
	if err := CheckBinding("other-chain", bind(h, 7, 36000), final, p); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("a binding for another chain id: %v", err)
	}
}

func TestSupersedes(t *testing.T) {
	prev := Binding{UID: 7, ParentBlock: 1000}
	for _, tt := range []struct {
		block uint64
		ok    bool
	}{{1001, true}, {1000, false}, {999, false}, {0, false}} {
		err := Supersedes(Binding{UID: 7, ParentBlock: tt.block}, prev)
		if tt.ok != (err == nil) || (!tt.ok && !errors.Is(err, ErrBindingNotNewer)) {
			t.Errorf("block %d over 1000: %v", tt.block, err)
		}
	}
}
