package app

import "encoding/binary"

// Key prefixes: one byte, then big-endian integers (or a raw public key), so
// that keys sort by their numeric parts. Never renumber a prefix.
const (
	prefixMeta     byte = 0x00 // Meta: height, app hash, lanes (outside the hashed set)
	prefixGenesis  byte = 0x01 // raw app_state bytes of genesis.json
	prefixChainID  byte = 0x02 // the chain id
	prefixCounters byte = 0x03 // Counters
	prefixAccount  byte = 0x04 // Account by 32-byte key
	prefixMiner    byte = 0x05 // Miner by uid
	prefixTask     byte = 0x06 // Task by id
	// 0x07 is unused.
	prefixTaskMiner     byte = 0x08 // task id, uid → submission id (one submission per miner per task)
	prefixSubmission    byte = 0x09 // Submission by id
	prefixDue           byte = 0x0a // DueList by height
	prefixWindow        byte = 0x0b // Window by track byte, uid
	prefixBaseline      byte = 0x0c // Baseline by task id
	prefixGasChain      byte = 0x0d // GasChain by EVM chain id
	prefixGasAgent      byte = 0x0e // GasAgent by EVM chain id, uid
	prefixPredictionSet byte = 0x0f // PredictionSet by EVM chain id, block
	prefixTruth         byte = 0x10 // TruthRound by EVM chain id, block
	prefixEpoch         byte = 0x11 // Epoch by number
)

// Window track bytes.
const (
	windowWorkflow byte = 1
	windowArena    byte = 2
)

var (
	keyMeta     = []byte{prefixMeta}
	keyGenesis  = []byte{prefixGenesis}
	keyChainID  = []byte{prefixChainID}
	keyCounters = []byte{prefixCounters}
)

func key(prefix byte, parts ...uint64) []byte {
	out := make([]byte, 1, 1+8*len(parts))
	out[0] = prefix
	for _, p := range parts {
		out = binary.BigEndian.AppendUint64(out, p)
	}
	return out
}

func keyAccount(pub []byte) []byte {
	return append([]byte{prefixAccount}, pub...)
}

func keyMiner(uid uint32) []byte { return key(prefixMiner, uint64(uid)) }
func keyTask(id uint64) []byte   { return key(prefixTask, id) }
func keyTaskMiner(task uint64, uid uint32) []byte {
	return key(prefixTaskMiner, task, uint64(uid))
}
func keySubmission(id uint64) []byte          { return key(prefixSubmission, id) }
func keyDue(height int64) []byte              { return key(prefixDue, uint64(height)) }
func keyWindow(track byte, uid uint32) []byte { return key(prefixWindow, uint64(track), uint64(uid)) }
func keyBaseline(task uint64) []byte          { return key(prefixBaseline, task) }
func keyGasChain(chain uint64) []byte         { return key(prefixGasChain, chain) }
func keyGasAgent(chain uint64, uid uint32) []byte {
	return key(prefixGasAgent, chain, uint64(uid))
}
func keyPredictionSet(chain, block uint64) []byte { return key(prefixPredictionSet, chain, block) }
func keyTruth(chain, block uint64) []byte         { return key(prefixTruth, chain, block) }
func keyEpoch(n uint64) []byte                    { return key(prefixEpoch, n) }
