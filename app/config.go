package app

import (
	cmtlog "github.com/cometbft/cometbft/libs/log"
	"github.com/scoringsubnet/validatord/x/budget"
)

// Config configures an App.
type Config struct {
	// DataDir is the badger directory; "" keeps the state in memory.
	DataDir string
	// Logger receives the app's and badger's warnings; nil discards them.
	Logger cmtlog.Logger
	// CrashPoint is "<point>[@<height>]" (VALIDATORD_CRASH_AT): the process
	// exits with status 3 at that point of block execution, at every height
	// or only at the given one. Points: finalize-begin, finalize-end,
	// commit-begin (before the badger transaction), commit-end (after it).
	CrashPoint string
	// Limits bound every block's work (x/budget); zero fields take the
	// defaults. They are consensus rules: every node of a chain must run the
	// same limits, so only tests set them.
	Limits budget.Limits
	// KeepVersions is how many heights of state versions the store keeps
	// for queries at a height (RequestQuery.Height): the state as of every
	// height in (latest − KeepVersions, latest] can be read; older versions
	// are dropped by badger's compactions. 0 keeps every version. A node
	// setting, not a consensus rule: nodes may keep different histories.
	KeepVersions int64
	// Snapshots configures state-sync snapshots (node settings too).
	Snapshots SnapshotConfig
	// RetainBlocks: Commit asks CometBFT to keep at least this many recent
	// blocks (RetainHeight); 0 keeps every block. Commit never asks to prune
	// below the oldest kept snapshot nor within EvidenceMaxAgeBlocks.
	RetainBlocks int64
	// EvidenceMaxAgeBlocks is the chain's consensus param
	// evidence.max_age_num_blocks: blocks within it stay.
	EvidenceMaxAgeBlocks int64
	// NoSync: the state is never synced to the disk before Close (badger
	// without synchronous writes, and no background sync either). Only for
	// a scratch state that a crash may lose whole, such as replay's
	// temporary directory; a node chooses Durability instead, which never
	// lets more than the last block's writes be off the disk. Results and
	// app hashes do not depend on it.
	NoSync bool
	// Durability is when a committed block's writes reach the disk
	// (durable.go): every block (the zero value) or pipelined. Results and
	// app hashes do not depend on it.
	Durability Durability
}

// SnapshotConfig: every Interval-th height a snapshot is written under Dir,
// and the newest KeepRecent are kept. Interval 0 or Dir "" writes none.
type SnapshotConfig struct {
	Dir        string
	Interval   int64
	KeepRecent int
}

// DefaultKeepVersions is the versions a node keeps when its config says
// nothing: about a day at one block every 6 seconds.
const DefaultKeepVersions = 14_400
