package mirror

import (
	"encoding/binary"
	"fmt"

	schnorrkel "github.com/ChainSafe/go-schnorrkel"
)

// BindingTag starts every binding message. It ends in NUL, so no printable
// text and no SCALE-encoded extrinsic payload a wallet signs for the parent
// chain starts with it, and a binding signature is good for nothing else.
const BindingTag = "validatord/mirror/bind/v1\x00"

// TxKeySize is the size of a miner's transaction key (ed25519).
const TxKeySize = 32

// SignatureSize is the size of an sr25519 signature.
const SignatureSize = 64

// SigningContext is the schnorrkel signing context of substrate's sr25519
// (sp_core::sr25519 signs with signing_context(b"substrate")), which every
// substrate wallet uses: polkadot.js, subkey, bittensor's Keypair.
const SigningContext = "substrate"

// Wrapping that polkadot.js (signRaw of the extension, u8aWrapBytes) puts
// around raw bytes before signing them, so that a dapp cannot have a wallet
// sign a transaction disguised as a message.
const (
	WrapPrefix  = "<Bytes>"
	WrapPostfix = "</Bytes>"
)

// Binding is a miner's request to bind its transaction key to its uid on
// the parent chain, signed by the uid's hotkey.
type Binding struct {
	UID         uint32
	TxKey       [TxKeySize]byte
	ParentBlock uint64
	Signature   [SignatureSize]byte
}

// BindingMessage is what the hotkey signs: BindingTag, the chain id behind
// an 8-byte big-endian length, the uid (4 bytes), the tx key (32 bytes) and
// the parent block the miner read its uid at (8 bytes), all big-endian. The
// chain id keeps a binding for one subnet chain from serving another; the
// parent block dates it (CheckBinding).
func BindingMessage(chainID string, uid uint32, txKey [TxKeySize]byte, parentBlock uint64) []byte {
	b := make([]byte, 0, len(BindingTag)+8+len(chainID)+4+TxKeySize+8)
	b = append(b, BindingTag...)
	b = binary.BigEndian.AppendUint64(b, uint64(len(chainID)))
	b = append(b, chainID...)
	b = binary.BigEndian.AppendUint32(b, uid)
	b = append(b, txKey[:]...)
	return binary.BigEndian.AppendUint64(b, parentBlock)
}

// Wrap returns msg in polkadot.js' <Bytes>…</Bytes> wrapping: the bytes a
// browser wallet actually signs when asked to sign msg.
func Wrap(msg []byte) []byte {
	b := make([]byte, 0, len(WrapPrefix)+len(msg)+len(WrapPostfix))
	b = append(b, WrapPrefix...)
	b = append(b, msg...)
	return append(b, WrapPostfix...)
}

// VerifyBinding checks sig, an sr25519 signature by hotkey in the
// "substrate" signing context, over msg or over Wrap(msg).
//
// Both are accepted so that every wallet of the parent chain can bind: a
// browser wallet (polkadot.js extension, Talisman, SubWallet) only signs
// raw bytes wrapped, while subkey, btcli and bittensor's Keypair.sign sign
// them as they are. Accepting the wrapped form costs nothing: only the
// holder of the hotkey can sign either, and both contain the tagged binding
// message, which no other protocol signs.
//
// Errors: *InputError (ErrInvalidInput) when hotkey is not a valid
// Ristretto point; ErrBadSignature when the signature is not a
// schnorrkel-marked signature with canonical scalars or does not verify
// either way.
func VerifyBinding(hotkey [HotkeySize]byte, msg []byte, sig [SignatureSize]byte) error {
	pub, err := schnorrkel.NewPublicKey(hotkey)
	if err != nil {
		return &InputError{Field: "hotkey", Value: fmt.Sprintf("%x", hotkey), Rule: "not an sr25519 public key"}
	}
	var s schnorrkel.Signature
	if err := s.Decode(sig); err != nil {
		return fmt.Errorf("%w: %v", ErrBadSignature, err)
	}
	if verify(pub, &s, msg) || verify(pub, &s, Wrap(msg)) {
		return nil
	}
	return ErrBadSignature
}

// verify checks one signature over one message; the library's errors (a
// public key at infinity) count as a failure.
func verify(pub *schnorrkel.PublicKey, s *schnorrkel.Signature, msg []byte) bool {
	ok, err := pub.Verify(s, schnorrkel.NewSigningContext([]byte(SigningContext), msg))
	return err == nil && ok
}

// CheckBinding is the one validity function of MsgBindHotkey, for CheckTx
// and FinalizeBlock alike, against the final snapshot final:
//   - the uid is in final (ErrUnknownUID);
//   - the binding's parent block is within MaxBlocksBehind of final's
//     (either side; ErrStaleBinding), so a signature expires;
//   - it is not before the uid's registration block
//     (ErrSignedBeforeRegistration): a hotkey that left the uid and came
//     back cannot replay the binding of its earlier tenure;
//   - the uid's hotkey signed BindingMessage(chainID, ...) (VerifyBinding).
//
// The cheap checks come first (PrecheckBinding); the signature is verified
// last.
func CheckBinding(chainID string, b Binding, final Snapshot, p Params) error {
	e, err := PrecheckBinding(b, final, p)
	if err != nil {
		return err
	}
	return VerifyBinding(e.Hotkey, BindingMessage(chainID, b.UID, b.TxKey, b.ParentBlock), b.Signature)
}

// PrecheckBinding is CheckBinding without the signature: the uid's entry
// in final, and the freshness rules. It returns the entry, whose hotkey
// VerifyBinding then checks the signature against; a caller that meters
// its work (the app charges a block's work budget for the sr25519
// verification) runs the two apart.
func PrecheckBinding(b Binding, final Snapshot, p Params) (Entry, error) {
	e, ok := final.Lookup(b.UID)
	if !ok {
		return Entry{}, fmt.Errorf("%w: uid %d at parent block %d", ErrUnknownUID, b.UID, final.ParentBlock)
	}
	if absDiff(b.ParentBlock, final.ParentBlock) > p.MaxBlocksBehind {
		return Entry{}, fmt.Errorf("%w: parent block %d, final %d, max_blocks_behind %d", ErrStaleBinding, b.ParentBlock, final.ParentBlock, p.MaxBlocksBehind)
	}
	if b.ParentBlock < e.RegisteredBlock {
		return Entry{}, fmt.Errorf("%w: signed at %d, registered at %d", ErrSignedBeforeRegistration, b.ParentBlock, e.RegisteredBlock)
	}
	return e, nil
}

// Supersedes checks that next may replace prev, the binding the uid holds
// now: next must have been signed at a later parent block
// (ErrBindingNotNewer). Without it, a miner that rotated its tx key from A
// to B could see A's holder resubmit the old binding (still fresh, still
// signed by the hotkey) and take the uid back. The app keeps each binding's
// parent block beside its tx key for this check; a reset deletes both.
func Supersedes(next, prev Binding) error {
	if next.ParentBlock <= prev.ParentBlock {
		return fmt.Errorf("%w: %d ≤ %d", ErrBindingNotNewer, next.ParentBlock, prev.ParentBlock)
	}
	return nil
}

func absDiff(a, b uint64) uint64 {
	if a > b {
		return a - b
	}
	return b - a
}
