package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/cometbft/cometbft/crypto/merkle"
	cmtcrypto "github.com/cometbft/cometbft/proto/tendermint/crypto"
)

// The provable stores: the records people check, each a Merkle tree whose
// root is a leaf of the app hash (docs/commitment.md). A store's name is
// the <name> of the query path /store/<name>/key; its keys are the state's
// own keys (prefix byte, then big-endian numbers), its values the state's
// own bytes (the gogoproto encoding of the record).
const (
	StoreCounters   = "counters"   // the chain's counters, one record: next ids, the latest epoch's number (subnetv1.Counters)
	StoreEpoch      = "epoch"      // an epoch's result: weights, u16 vector, track scores (subnetv1.Epoch)
	StoreGasAgent   = "gas_agent"  // a gas agent's memory, history and score (subnetv1.GasAgent)
	StoreSubmission = "submission" // a submission with its votes and score receipt (subnetv1.Submission)
	StoreWindow     = "window"     // a miner's rolling window on a track (subnetv1.Window)
	// LtHashLeaf is the app hash's leaf holding the LtHash digest of the
	// whole state: what a snapshot restore and a replay check.
	LtHashLeaf = "lthash"
)

// ProvableStores are the provable stores by name, and the state key prefix
// each holds (the values of store.Layout's prefixes).
var ProvableStores = []struct {
	Name   string
	Prefix byte
}{
	{StoreCounters, 0x03}, {StoreEpoch, 0x11}, {StoreGasAgent, 0x0e}, {StoreSubmission, 0x09}, {StoreWindow, 0x0b},
}

// StorePrefix is the state key prefix of a provable store.
func StorePrefix(name string) (byte, bool) {
	for _, s := range ProvableStores {
		if s.Name == name {
			return s.Prefix, true
		}
	}
	return 0, false
}

// StoreOfKey names the provable store a state key belongs to.
func StoreOfKey(key []byte) (string, bool) {
	if len(key) == 0 {
		return "", false
	}
	for _, s := range ProvableStores {
		if s.Prefix == key[0] {
			return s.Name, true
		}
	}
	return "", false
}

// Keys of the provable records: the state's keys (store.Key… build the same
// bytes; a test pins them together).
func recordKey(prefix byte, parts ...uint64) []byte {
	out := []byte{prefix}
	for _, p := range parts {
		out = binary.BigEndian.AppendUint64(out, p)
	}
	return out
}

// CountersKey is the key of the one record of the counters store: proven at
// the same height as an epoch, its epochs field shows that epoch is the
// latest there.
func CountersKey() []byte { return []byte{0x03} }

// EpochKey is the key of epoch n in the epoch store.
func EpochKey(n uint64) []byte { return recordKey(0x11, n) }

// SubmissionKey is the key of submission id in the submission store.
func SubmissionKey(id uint64) []byte { return recordKey(0x09, id) }

// WindowKey is the key of uid's window on a track (1 workflow, 2 arena; see
// WindowTrack) in the window store.
func WindowKey(track byte, uid uint32) []byte { return recordKey(0x0b, uint64(track), uint64(uid)) }

// GasAgentKey is the key of uid's gas agent on an EVM chain.
func GasAgentKey(chain uint64, uid uint32) []byte { return recordKey(0x0e, chain, uint64(uid)) }

// WindowTrack is the track byte of a window key: 1 workflow, 2 arena.
func WindowTrack(track string) (byte, bool) {
	switch track {
	case "workflow":
		return 1, true
	case "arena":
		return 2, true
	}
	return 0, false
}

// StoreQueryPath is the abci_query path of a provable store,
// "/store/<name>/key": the shape CometBFT's light client proxy parses.
func StoreQueryPath(name string) string { return "/store/" + name + "/key" }

// ParseStoreQueryPath returns the store named by a "/store/<name>/key" path.
func ParseStoreQueryPath(path string) (string, bool) {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	if len(parts) != 3 || parts[0] != "store" || parts[2] != "key" || parts[1] == "" {
		return "", false
	}
	return parts[1], true
}

// ProofKeyPath is the key path a proof of key in store name is checked
// under: the store's name, then the key, as CometBFT's light client builds
// it from the query path (light/rpc DefaultMerkleKeyPathFn).
func ProofKeyPath(name string, key []byte) string {
	return merkle.KeyPath{}.AppendKey([]byte(name), merkle.KeyEncodingURL).AppendKey(key, merkle.KeyEncodingHex).String()
}

// ErrProof is matched by every proof that does not verify.
var ErrProof = errors.New("proof does not verify")

// VerifyProof checks that value is stored under key in the provable store
// name of the state whose app hash is appHash, with CometBFT's default proof
// runtime: exactly what `cometbft light` runs on our answers.
func VerifyProof(appHash []byte, name string, key, value []byte, ops *cmtcrypto.ProofOps) error {
	if _, ok := StorePrefix(name); !ok {
		return fmt.Errorf("%w: %q is not a provable store", ErrProof, name)
	}
	if ops == nil || len(ops.Ops) == 0 {
		return fmt.Errorf("%w: the answer carries no proof", ErrProof)
	}
	if len(value) == 0 {
		return fmt.Errorf("%w: an empty value (absence) is not provable here", ErrProof)
	}
	if err := merkle.DefaultProofRuntime().VerifyValue(ops, appHash, ProofKeyPath(name, key), value); err != nil {
		return fmt.Errorf("%w: %s under key %x in store %q against app hash %X: %v", ErrProof, "the value", key, name, appHash, err)
	}
	return nil
}
