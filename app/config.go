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
}
