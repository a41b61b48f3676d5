package app

import (
	"flag"
	"os"
	"testing"

	"github.com/scoringsubnet/validatord/app/store"
)

// TestMain checks every store.Overlay.Create claim while the tests run
// (a key created must never have held a value); a run of benchmarks
// measures without the checks, which cost the look-ups Create saves.
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		store.VerifyCreates(true)
	}
	os.Exit(m.Run())
}
