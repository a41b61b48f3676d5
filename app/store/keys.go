package store

import (
	"encoding/binary"

	"github.com/cosmos/gogoproto/proto"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Key prefixes: one byte, then big-endian integers (or a raw public key), so
// that keys sort by their numeric parts. Never renumber or reuse a prefix.
const (
	PrefixMeta     byte = 0x00 // Meta: height, app hash, lanes (outside the hashed set)
	PrefixGenesis  byte = 0x01 // raw app_state bytes of genesis.json
	PrefixChainID  byte = 0x02 // the chain id
	PrefixCounters byte = 0x03 // Counters
	PrefixAccount  byte = 0x04 // Account by 32-byte key
	PrefixMiner    byte = 0x05 // Miner by uid
	PrefixTask     byte = 0x06 // Task by id
	// 0x07 was never written by any version; it stays unassigned.
	PrefixTaskMiner     byte = 0x08 // task id, uid → submission id (one submission per miner per task)
	PrefixSubmission    byte = 0x09 // Submission by id
	PrefixDue           byte = 0x0a // retired: the DueList by height of the first version; never written now
	PrefixWindow        byte = 0x0b // Window by track byte, uid
	PrefixBaseline      byte = 0x0c // Baseline by task id
	PrefixGasChain      byte = 0x0d // GasChain by EVM chain id
	PrefixGasAgent      byte = 0x0e // GasAgent by EVM chain id, uid
	PrefixPredictionSet byte = 0x0f // PredictionSet by EVM chain id, block
	PrefixTruth         byte = 0x10 // TruthRound by EVM chain id, block
	PrefixEpoch         byte = 0x11 // Epoch by number
	PrefixDueBucket     byte = 0x12 // due kind, height → head, tail, resume index (u64s)
	PrefixDueEntry      byte = 0x13 // due kind, height, seq → the entry's ids (u64s)
	PrefixDueCursor     byte = 0x14 // due kind → lowest height with undone entries, buckets pending (u64s)
	PrefixTaskSub       byte = 0x15 // task id, index → submission id (a task's submissions in arrival order)
	PrefixOpenTasks     byte = 0x16 // validator index → tasks it posted whose settlement is not done (u64)
	PrefixOpenRounds    byte = 0x17 // validator index, EVM chain id → pending truth rounds it voted in (u64)
	PrefixTaskArtifact  byte = 0x18 // task id, 32-byte artifact hash → the submission id that keeps it (u64)
	PrefixRegistration  byte = 0x19 // Registration: difficulty, registrations this interval and this block
	PrefixBlockHash     byte = 0x1a // BlockHash by height: the last membership.max_pow_age_blocks blocks
	PrefixPruneQueue    byte = 0x1b // PruneEntry by position: the last epoch's miners in prune order
	PrefixRegCount      byte = 0x1c // registration height → registrations then still immune (u64)
	PrefixFreeUID       byte = 0x1d // position → a uid freed by deregistration (u64), taken in order
	PrefixValset        byte = 0x1e // Valset: validator registry, sets by height, queue of approved changes
	PrefixParams        byte = 0x1f // ParamsHistory: the params in force and those scheduled
	PrefixProposal      byte = 0x20 // Proposal by id
	PrefixMisbehaviour  byte = 0x21 // Misbehaviour by sequence number
	PrefixOpenProposals byte = 0x22 // validator index → its open proposals (u64)
	PrefixGasPausedAt   byte = 0x23 // EVM chain id → the height its latest pause came into force (u64)
	// 0x28–0x2f: mirror mode (docs/mirror.md §4).
	PrefixMirrorState byte = 0x28 // MirrorState: the last final parent block and digest, open and touched parent blocks
	PrefixMirrorUID   byte = 0x29 // MirrorEntry by uid: the final snapshot, one entry per uid
	PrefixMirrorBind  byte = 0x2a // MirrorBinding by uid: the bound tx key and the parent block it was signed at
	PrefixMirrorRound byte = 0x2b // MirrorRound by parent block: the votes of an open attestation round
	PrefixMirrorBody  byte = 0x2c // MirrorBody by 32-byte digest: a snapshot's encoding, until its round is pruned
	PrefixMirrorOpen  byte = 0x2d // report key → the open attestation rounds the validator voted in (u64)
	// 0x30–0x31: finding things (docs/queries.md).
	PrefixMinerSub byte = 0x30 // uid, submission id → (empty): a miner's submissions, written at the commit, deleted with the submission
	// 0x31: the genesis the chain was initialised with (docs/queries.md, status).
	PrefixGenesisHash byte = 0x31 // sha256 of the InitChain request: chain id, time, initial height, consensus params, validators, app_state
	// 0x34–0x35 and 0xf0: the Merkle commitment of the provable records (app/commitment, docs/commitment.md).
	PrefixRecordSlot  byte = 0x34 // record key (a provable store's state key) → its leaf's index in the store's tree (u64)
	PrefixRecordCount byte = 0x35 // provable store's prefix byte → its tree's leaves, the free slots' queue head and tail (u64s)
	PrefixRecordFree  byte = 0x36 // store prefix byte, queue position → a slot a deleted record freed, reused first (u64)

	PrefixTrackCount byte = 0x37 // count kind byte, track name → the count (u64): see TrackOpenTasks, TrackAwaitingReveal
	// PrefixRecordNode holds the trees' node hashes: store prefix byte, level
	// byte, index (u64) → 32 bytes. Outside the hashed set like the meta (the
	// app hash commits to the trees through their roots), never in a
	// snapshot (a restore rebuilds the nodes from the records and checks the
	// roots), and last in key order so that a state scan can stop before it.
	PrefixRecordNode byte = 0xf0
)

// ValueKind says how a prefix's values are encoded.
type ValueKind int

// Value encodings.
const (
	KindProto ValueKind = iota // a gogoproto message (Prefix.New)
	KindJSON                   // raw JSON bytes
	KindText                   // UTF-8 text
	KindU64                    // one big-endian uint64
	KindU64s                   // big-endian uint64s
	KindBytes                  // raw bytes (a hash), shown as hex
)

// Prefix describes one key prefix of the state.
type Prefix struct {
	Byte byte
	Name string
	// Score: its entries hold scores or receipts (what a score digest covers).
	Score bool
	// RawKey: the key after the prefix is raw bytes, not uint64 parts.
	RawKey bool
	// Unhashed: outside the hashed set (Hashed), like the meta.
	Unhashed bool
	Kind     ValueKind
	// New returns an empty message of the prefix's values (KindProto only).
	New func() proto.Message
}

// Layout is every prefix of the state, in byte order: the one description of
// the key space that the app, the state dump and the replay tools share.
var Layout = []Prefix{
	{Byte: PrefixMeta, Name: "meta", Kind: KindProto, Unhashed: true, New: func() proto.Message { return &subnetv1.Meta{} }},
	{Byte: PrefixGenesis, Name: "genesis", Kind: KindJSON},
	{Byte: PrefixChainID, Name: "chain_id", Kind: KindText},
	{Byte: PrefixCounters, Name: "counters", Kind: KindProto, New: func() proto.Message { return &subnetv1.Counters{} }},
	{Byte: PrefixAccount, Name: "account", RawKey: true, Kind: KindProto, New: func() proto.Message { return &subnetv1.Account{} }},
	{Byte: PrefixMiner, Name: "miner", Kind: KindProto, New: func() proto.Message { return &subnetv1.Miner{} }},
	{Byte: PrefixTask, Name: "task", Kind: KindProto, New: func() proto.Message { return &subnetv1.Task{} }},
	{Byte: PrefixTaskMiner, Name: "task_miner", Kind: KindU64},
	{Byte: PrefixSubmission, Name: "submission", Score: true, Kind: KindProto, New: func() proto.Message { return &subnetv1.Submission{} }},
	{Byte: PrefixWindow, Name: "window", Score: true, Kind: KindProto, New: func() proto.Message { return &subnetv1.Window{} }},
	{Byte: PrefixBaseline, Name: "baseline", Kind: KindProto, New: func() proto.Message { return &subnetv1.Baseline{} }},
	{Byte: PrefixGasChain, Name: "gas_chain", Kind: KindProto, New: func() proto.Message { return &subnetv1.GasChain{} }},
	{Byte: PrefixGasAgent, Name: "gas_agent", Score: true, Kind: KindProto, New: func() proto.Message { return &subnetv1.GasAgent{} }},
	{Byte: PrefixPredictionSet, Name: "prediction_set", Kind: KindProto, New: func() proto.Message { return &subnetv1.PredictionSet{} }},
	{Byte: PrefixTruth, Name: "truth", Kind: KindProto, New: func() proto.Message { return &subnetv1.TruthRound{} }},
	{Byte: PrefixEpoch, Name: "epoch", Score: true, Kind: KindProto, New: func() proto.Message { return &subnetv1.Epoch{} }},
	{Byte: PrefixDueBucket, Name: "due_bucket", Kind: KindU64s},
	{Byte: PrefixDueEntry, Name: "due_entry", Kind: KindU64s},
	{Byte: PrefixDueCursor, Name: "due_cursor", Kind: KindU64s},
	{Byte: PrefixTaskSub, Name: "task_sub", Kind: KindU64},
	{Byte: PrefixOpenTasks, Name: "open_tasks", Kind: KindU64},
	{Byte: PrefixOpenRounds, Name: "open_rounds", Kind: KindU64},
	{Byte: PrefixTaskArtifact, Name: "task_artifact", RawKey: true, Kind: KindU64},
	{Byte: PrefixRegistration, Name: "registration", Kind: KindProto, New: func() proto.Message { return &subnetv1.Registration{} }},
	{Byte: PrefixBlockHash, Name: "block_hash", Kind: KindProto, New: func() proto.Message { return &subnetv1.BlockHash{} }},
	{Byte: PrefixPruneQueue, Name: "prune_queue", Kind: KindProto, New: func() proto.Message { return &subnetv1.PruneEntry{} }},
	{Byte: PrefixRegCount, Name: "reg_count", Kind: KindU64},
	{Byte: PrefixFreeUID, Name: "free_uid", Kind: KindU64},
	{Byte: PrefixValset, Name: "valset", Kind: KindProto, New: func() proto.Message { return &subnetv1.Valset{} }},
	{Byte: PrefixParams, Name: "params", Kind: KindProto, New: func() proto.Message { return &subnetv1.ParamsHistory{} }},
	{Byte: PrefixProposal, Name: "proposal", Kind: KindProto, New: func() proto.Message { return &subnetv1.Proposal{} }},
	{Byte: PrefixMisbehaviour, Name: "misbehaviour", Kind: KindProto, New: func() proto.Message { return &subnetv1.Misbehaviour{} }},
	{Byte: PrefixOpenProposals, Name: "open_proposals", Kind: KindU64},
	{Byte: PrefixGasPausedAt, Name: "gas_paused_at", Kind: KindU64},
	{Byte: PrefixMirrorState, Name: "mirror_state", Kind: KindProto, New: func() proto.Message { return &subnetv1.MirrorState{} }},
	{Byte: PrefixMirrorUID, Name: "mirror_uid", Kind: KindProto, New: func() proto.Message { return &subnetv1.MirrorEntry{} }},
	{Byte: PrefixMirrorBind, Name: "mirror_bind", Kind: KindProto, New: func() proto.Message { return &subnetv1.MirrorBinding{} }},
	{Byte: PrefixMirrorRound, Name: "mirror_round", Kind: KindProto, New: func() proto.Message { return &subnetv1.MirrorRound{} }},
	{Byte: PrefixMirrorBody, Name: "mirror_body", RawKey: true, Kind: KindProto, New: func() proto.Message { return &subnetv1.MirrorBody{} }},
	{Byte: PrefixMirrorOpen, Name: "mirror_open", RawKey: true, Kind: KindU64},
	{Byte: PrefixMinerSub, Name: "miner_sub", Kind: KindBytes},
	{Byte: PrefixGenesisHash, Name: "genesis_hash", Kind: KindBytes},
	{Byte: PrefixRecordSlot, Name: "record_slot", RawKey: true, Kind: KindU64},
	{Byte: PrefixRecordCount, Name: "record_count", RawKey: true, Kind: KindU64s},
	{Byte: PrefixRecordFree, Name: "record_free", RawKey: true, Kind: KindU64},
	{Byte: PrefixTrackCount, Name: "track_count", RawKey: true, Kind: KindU64},
	{Byte: PrefixRecordNode, Name: "record_node", RawKey: true, Kind: KindBytes, Unhashed: true},
}

// Hashed reports whether key belongs to the hashed set (the LtHash and the
// snapshots): every key but the meta's and the record trees' nodes.
func Hashed(key []byte) bool {
	return len(key) > 0 && key[0] != PrefixMeta && key[0] != PrefixRecordNode
}

// PrefixOf returns the layout entry of key's first byte; ok is false for an
// unknown prefix (or an empty key).
func PrefixOf(key []byte) (Prefix, bool) {
	if len(key) == 0 {
		return Prefix{}, false
	}
	for _, p := range Layout {
		if p.Byte == key[0] {
			return p, true
		}
	}
	return Prefix{}, false
}

// Window track bytes (the first part of a window key).
const (
	WindowWorkflow byte = 1
	WindowArena    byte = 2
)

// Single-entry keys.
var (
	KeyMeta         = []byte{PrefixMeta}
	KeyGenesis      = []byte{PrefixGenesis}
	KeyChainID      = []byte{PrefixChainID}
	KeyCounters     = []byte{PrefixCounters}
	KeyRegistration = []byte{PrefixRegistration}
	KeyValset       = []byte{PrefixValset}
	KeyParams       = []byte{PrefixParams}
	KeyMirrorState  = []byte{PrefixMirrorState}
	KeyGenesisHash  = []byte{PrefixGenesisHash}
)

// KeyProposal is the key of proposal id.
func KeyProposal(id uint64) []byte { return key(PrefixProposal, id) }

// KeyMisbehaviour is the key of the n-th recorded misbehaviour.
func KeyMisbehaviour(n uint64) []byte { return key(PrefixMisbehaviour, n) }

// KeyOpenProposals is the key of a validator's count of open proposals.
func KeyOpenProposals(validator uint32) []byte { return key(PrefixOpenProposals, uint64(validator)) }

func key(prefix byte, parts ...uint64) []byte {
	out := make([]byte, 1, 1+8*len(parts))
	out[0] = prefix
	for _, p := range parts {
		out = binary.BigEndian.AppendUint64(out, p)
	}
	return out
}

// KeyAccount is the account of a 32-byte ed25519 key.
func KeyAccount(pub []byte) []byte { return append([]byte{PrefixAccount}, pub...) }

// KeyMiner is the miner record of a uid.
func KeyMiner(uid uint32) []byte { return key(PrefixMiner, uint64(uid)) }

// KeyTask is a task by id.
func KeyTask(id uint64) []byte { return key(PrefixTask, id) }

// KeyTaskMiner maps (task, uid) to the miner's submission id.
func KeyTaskMiner(task uint64, uid uint32) []byte { return key(PrefixTaskMiner, task, uint64(uid)) }

// KeyMinerSub is uid's entry for its submission id in the miner index.
func KeyMinerSub(uid uint32, id uint64) []byte { return key(PrefixMinerSub, uint64(uid), id) }

// MinerSubPrefix is the prefix of uid's entries in the miner index.
func MinerSubPrefix(uid uint32) []byte { return key(PrefixMinerSub, uint64(uid)) }

// KeySubmission is a submission by id.
func KeySubmission(id uint64) []byte { return key(PrefixSubmission, id) }

// KeyTaskSub is the index-th submission of a task (in arrival order).
func KeyTaskSub(task, index uint64) []byte { return key(PrefixTaskSub, task, index) }

// KeyTaskArtifact maps a task's revealed artifact hash to the submission
// that keeps it (the earliest commit; docs/commit-reveal.md §7).
func KeyTaskArtifact(task uint64, artifact []byte) []byte {
	return append(key(PrefixTaskArtifact, task), artifact...)
}

// KeyOpenTasks counts a validator's tasks whose settlement is not done.
func KeyOpenTasks(validator int) []byte { return key(PrefixOpenTasks, uint64(validator)) }

// The kinds of KeyTrackCount: counts per track that the state keeps as it
// goes, so that an operator's gauge reads a key instead of scanning tasks or
// submissions.
const (
	// TrackOpenTasks: posted tasks whose settlement is not done.
	TrackOpenTasks byte = 1
	// TrackAwaitingReveal: commits whose reveal has not come and whose
	// reveal window has not been closed by the chain (status committed).
	TrackAwaitingReveal byte = 2
)

// KeyTrackCount is a count of one kind (TrackOpenTasks, TrackAwaitingReveal)
// for one track, by its name.
func KeyTrackCount(kind byte, track string) []byte {
	return append([]byte{PrefixTrackCount, kind}, track...)
}

// KeyOpenRounds counts the pending truth rounds of an EVM chain a validator voted in.
func KeyOpenRounds(validator int, chain uint64) []byte {
	return key(PrefixOpenRounds, uint64(validator), chain)
}

// KeyWindow is a miner's window of a track (WindowWorkflow, WindowArena).
func KeyWindow(track byte, uid uint32) []byte { return key(PrefixWindow, uint64(track), uint64(uid)) }

// KeyBaseline is an arena task's baseline state.
func KeyBaseline(task uint64) []byte { return key(PrefixBaseline, task) }

// KeyGasPausedAt is the height an EVM chain's latest pause came into force:
// a close of a block whose truth became final before it judges nobody (the
// pause ended the block's predictions).
func KeyGasPausedAt(chain uint64) []byte { return key(PrefixGasPausedAt, chain) }

// KeyGasChain is an EVM chain's close state.
func KeyGasChain(chain uint64) []byte { return key(PrefixGasChain, chain) }

// KeyGasAgent is a uid's gas agent on an EVM chain.
func KeyGasAgent(chain uint64, uid uint32) []byte { return key(PrefixGasAgent, chain, uint64(uid)) }

// KeyPredictionSet is the open predictions of an EVM block.
func KeyPredictionSet(chain, block uint64) []byte { return key(PrefixPredictionSet, chain, block) }

// KeyTruth is the truth round of an EVM block.
func KeyTruth(chain, block uint64) []byte { return key(PrefixTruth, chain, block) }

// KeyEpoch is an epoch by number.
func KeyEpoch(n uint64) []byte { return key(PrefixEpoch, n) }

// KeyBlockHash is the hash of the block at height (height ≥ 0: the entry
// below the first block is the genesis').
func KeyBlockHash(height int64) []byte { return key(PrefixBlockHash, uint64(height)) }

// KeyPruneQueue is the pos-th entry of the prune queue.
func KeyPruneQueue(pos uint64) []byte { return key(PrefixPruneQueue, pos) }

// KeyRegCount counts the registrations at height not yet out of immunity.
func KeyRegCount(height int64) []byte { return key(PrefixRegCount, uint64(height)) }

// KeyFreeUID is the pos-th uid freed by deregistration.
func KeyFreeUID(pos uint64) []byte { return key(PrefixFreeUID, pos) }

// KeyMirrorUID is uid's entry in the final mirror snapshot.
func KeyMirrorUID(uid uint32) []byte { return key(PrefixMirrorUID, uint64(uid)) }

// KeyMirrorBind is uid's binding to a tx key (mirror mode).
func KeyMirrorBind(uid uint32) []byte { return key(PrefixMirrorBind, uint64(uid)) }

// KeyMirrorRound is the attestation round of a parent block.
func KeyMirrorRound(parentBlock uint64) []byte { return key(PrefixMirrorRound, parentBlock) }

// KeyMirrorBody is a snapshot's encoding by its 32-byte digest.
func KeyMirrorBody(digest []byte) []byte { return append([]byte{PrefixMirrorBody}, digest...) }

// KeyMirrorOpen counts the open attestation rounds a validator (by report
// key) voted in.
func KeyMirrorOpen(reportKey []byte) []byte { return append([]byte{PrefixMirrorOpen}, reportKey...) }
