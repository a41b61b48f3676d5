// Package mirror owns the rules of the mirror registration mode
// (docs/mirror.md): a subnet whose miner uids belong to the parent
// chain (Bittensor). Validators attest the parent chain's metagraph, miners
// bind their transaction keys to their parent-chain uids with a signature
// by the uid's hotkey, and a uid whose hotkey changes is reset. It is pure:
// it imports the standard library, x/quorum, golang.org/x/crypto/blake2b
// and the sr25519 library github.com/ChainSafe/go-schnorrkel; it takes
// blocks and powers as arguments and never reads state, a clock or
// randomness.
//
//   - Snapshot: the metagraph at a parent block, entries (uid, hotkey,
//     registration block) sorted by uid with no duplicates. Encode is
//     canonical (fixed-size entries behind a count), Decode accepts exactly
//     what Encode produces for a valid snapshot, Digest is SHA-256 over
//     DigestTag and the encoding, Validate refuses unsorted, duplicate,
//     oversized or out-of-range input with a *SnapshotError.
//   - Attestation: Aggregate groups validators' votes by (parent block,
//     digest) and is final when one group holds strictly more than 2/3 of
//     the total power (x/quorum's rule); CheckAttestation keeps attested
//     parent blocks on the AttestationBlocks cadence and after the last
//     final one.
//   - Reset: Diff(old, new) lists the uids whose entry changed (hotkey or
//     registration block), appeared or disappeared.
//   - Binding: BindingMessage is what a hotkey signs to bind a tx key to
//     its uid; VerifyBinding checks an sr25519 signature in substrate's
//     signing context over the message, raw or in polkadot.js'
//     <Bytes>…</Bytes> wrapping; CheckBinding adds the snapshot lookup and
//     the freshness rules; Supersedes keeps a rotated-out tx key from
//     replaying its old binding.
//   - ss58: EncodeSS58 and DecodeSS58 turn addresses into the 32-byte
//     hotkeys that snapshots hold.
//
// A use, at the end of a block that carried attestations, then for a
// binding:
//
//	out, err := mirror.Aggregate(votes, totalPower)
//	if err == nil && out.Final {
//		next, _ := mirror.Decode(proposedBytes[out.Digest], params) // the snapshot whose digest won
//		for _, uid := range mirror.Diff(current, next) { /* clear uid's state and binding */ }
//		current = next
//	}
//	err = mirror.CheckBinding(chainID, mirror.Binding{UID: 7, TxKey: sender, ParentBlock: pb, Signature: sig}, current, params)
//	// nil: bind sender to uid 7; errors.Is(err, mirror.ErrBadSignature), ErrStaleBinding, ...: own codes
//
// Errors are sentinels (ErrBadSignature, ErrStaleBinding, ...), *InputError
// naming a field, or *SnapshotError naming an entry; every refusal of an
// argument also matches ErrInvalidInput.
package mirror
