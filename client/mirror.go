package client

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	schnorrkel "github.com/ChainSafe/go-schnorrkel"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/mirror"
)

// Mirror mode (docs/mirror.md): a validator attests the parent chain's
// metagraph, a miner binds its tx key to its parent uid with its hotkey's
// signature.

// AttestMetagraph votes for snapshot s (validators' report keys). The
// first attester of a digest sends the snapshot's encoding too
// (withSnapshot); later ones may send the digest alone.
func AttestMetagraph(s mirror.Snapshot, withSnapshot bool) *subnetv1.Msg {
	d := s.Digest()
	m := &subnetv1.MsgAttestMetagraph{ParentBlock: s.ParentBlock, Digest: d[:]}
	if withSnapshot {
		m.Snapshot = s.Encode()
	}
	return &subnetv1.Msg{Sum: &subnetv1.Msg_AttestMetagraph{AttestMetagraph: m}}
}

// BindHotkey binds the sender's tx key to uid, with the uid's hotkey
// signature over mirror.BindingMessage(chain id, uid, sender, parentBlock)
// (SignBinding makes one from a seed).
func BindHotkey(uid uint32, parentBlock uint64, signature [mirror.SignatureSize]byte) *subnetv1.Msg {
	return &subnetv1.Msg{Sum: &subnetv1.Msg_BindHotkey{BindHotkey: &subnetv1.MsgBindHotkey{Uid: uid, ParentBlock: parentBlock,
		Signature: append([]byte(nil), signature[:]...)}}}
}

// sr25519Key expands a 32-byte seed (substrate's mini secret key, what
// `subkey inspect` calls the secret seed) as substrate does (Ed25519 mode).
func sr25519Key(seed [32]byte) (*schnorrkel.SecretKey, error) {
	mini, err := schnorrkel.NewMiniSecretKeyFromRaw(seed)
	if err != nil {
		return nil, fmt.Errorf("client: sr25519 seed: %w", err)
	}
	return mini.ExpandEd25519(), nil
}

// HotkeyFromSeed is the sr25519 public key of a seed: the hotkey a
// snapshot names.
func HotkeyFromSeed(seed [32]byte) ([mirror.HotkeySize]byte, error) {
	sk, err := sr25519Key(seed)
	if err != nil {
		return [mirror.HotkeySize]byte{}, err
	}
	pub, err := sk.Public()
	if err != nil {
		return [mirror.HotkeySize]byte{}, fmt.Errorf("client: sr25519 public key: %w", err)
	}
	return pub.Encode(), nil
}

// SignBinding signs, with the hotkey of seed, the binding of txKey to uid
// at parentBlock on chainID, in substrate's signing context, as subkey and
// bittensor's Keypair.sign do (for development and tests: a miner's hotkey
// usually signs in its own wallet).
func SignBinding(seed [32]byte, chainID string, uid uint32, txKey ed25519.PublicKey, parentBlock uint64) ([mirror.SignatureSize]byte, error) {
	var tk [mirror.TxKeySize]byte
	if len(txKey) != mirror.TxKeySize {
		return [mirror.SignatureSize]byte{}, fmt.Errorf("client: tx key has %d bytes, want %d", len(txKey), mirror.TxKeySize)
	}
	copy(tk[:], txKey)
	sk, err := sr25519Key(seed)
	if err != nil {
		return [mirror.SignatureSize]byte{}, err
	}
	msg := mirror.BindingMessage(chainID, uid, tk, parentBlock)
	sig, err := sk.Sign(schnorrkel.NewSigningContext([]byte(mirror.SigningContext), msg))
	if err != nil {
		return [mirror.SignatureSize]byte{}, fmt.Errorf("client: sr25519 sign: %w", err)
	}
	return sig.Encode(), nil
}

// SnapshotFile is the JSON a validator's reader writes for one parent
// block: each uid's hotkey as an ss58 address and its registration block.
//
//	{"parent_block": 720, "entries": [{"uid": 1, "hotkey": "5Grw…", "registered_block": 12}]}
type SnapshotFile struct {
	ParentBlock uint64              `json:"parent_block"`
	Entries     []SnapshotFileEntry `json:"entries"`
}

// SnapshotFileEntry is one uid of a SnapshotFile.
type SnapshotFileEntry struct {
	UID             uint32 `json:"uid"`
	Hotkey          string `json:"hotkey"`
	RegisteredBlock uint64 `json:"registered_block"`
}

// DecodeSnapshotFile reads a SnapshotFile (unknown fields refused) into a
// snapshot sorted by uid. parentBlock, when not 0, must be the file's (or
// is taken as it when the file has none). Hotkeys must be ss58 addresses
// of Bittensor's prefix 42. The app's rules (max_entries, registration
// blocks) are checked by the chain.
func DecodeSnapshotFile(bz []byte, parentBlock uint64) (mirror.Snapshot, error) {
	var f SnapshotFile
	dec := json.NewDecoder(bytes.NewReader(bz))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return mirror.Snapshot{}, fmt.Errorf("client: snapshot file: %w", err)
	}
	switch {
	case f.ParentBlock == 0:
		f.ParentBlock = parentBlock
	case parentBlock != 0 && parentBlock != f.ParentBlock:
		return mirror.Snapshot{}, fmt.Errorf("client: the snapshot file is of parent block %d, not %d", f.ParentBlock, parentBlock)
	}
	s := mirror.Snapshot{ParentBlock: f.ParentBlock, Entries: make([]mirror.Entry, 0, len(f.Entries))}
	for i, e := range f.Entries {
		key, err := mirror.HotkeyFromSS58(e.Hotkey, mirror.BittensorSS58Prefix)
		if err != nil {
			return mirror.Snapshot{}, fmt.Errorf("client: snapshot file entries[%d] (uid %d): %w", i, e.UID, err)
		}
		s.Entries = append(s.Entries, mirror.Entry{UID: e.UID, Hotkey: key, RegisteredBlock: e.RegisteredBlock})
	}
	sort.SliceStable(s.Entries, func(i, j int) bool { return s.Entries[i].UID < s.Entries[j].UID })
	if err := s.Validate(mirror.Params{MaxEntries: mirror.MaxEntriesLimit}); err != nil {
		return mirror.Snapshot{}, fmt.Errorf("client: snapshot file: %w", err)
	}
	return s, nil
}

// DecodeHex32 and DecodeSignature read hex strings of a fixed size (a
// "0x" prefix is allowed): an sr25519 seed or an ed25519 tx key, and an
// sr25519 signature.
func DecodeHex32(name, s string) ([32]byte, error) {
	var out [32]byte
	return out, decodeHexInto(name, s, out[:])
}

// DecodeSignature reads a hex sr25519 signature (64 bytes).
func DecodeSignature(s string) ([mirror.SignatureSize]byte, error) {
	var out [mirror.SignatureSize]byte
	return out, decodeHexInto("signature", s, out[:])
}

func decodeHexInto(name, s string, out []byte) error {
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	if err != nil || len(b) != len(out) {
		return fmt.Errorf("client: %s must be %d bytes of hex", name, len(out))
	}
	copy(out, b)
	return nil
}

// BindingSignature is what SignBindingView answers: the hotkey (ss58 and
// hex) and its signature of the binding.
type BindingSignature struct {
	Hotkey      string `json:"hotkey"`
	HotkeyHex   string `json:"hotkey_hex"`
	Signature   string `json:"signature"`
	UID         uint32 `json:"uid"`
	TxKey       string `json:"tx_key"`
	ParentBlock uint64 `json:"parent_block"`
}

// SignBindingView signs a binding with the hotkey of seed (SignBinding) and
// describes it, for `validatord keys sign-binding`.
func SignBindingView(seed [32]byte, chainID string, uid uint32, txKey ed25519.PublicKey, parentBlock uint64) (BindingSignature, error) {
	sig, err := SignBinding(seed, chainID, uid, txKey, parentBlock)
	if err != nil {
		return BindingSignature{}, err
	}
	pub, err := HotkeyFromSeed(seed)
	if err != nil {
		return BindingSignature{}, err
	}
	addr, err := mirror.EncodeSS58(mirror.BittensorSS58Prefix, pub)
	if err != nil {
		return BindingSignature{}, err
	}
	return BindingSignature{Hotkey: addr, HotkeyHex: hex.EncodeToString(pub[:]), Signature: hex.EncodeToString(sig[:]), UID: uid,
		TxKey: hex.EncodeToString(txKey), ParentBlock: parentBlock}, nil
}
