package testmain

import (
	"flag"
	"os"
	"testing"

	"github.com/scoringsubnet/validatord/app/store"
)

// Run parses the test flags, turns on the checks of Create's claims unless
// benchmarks were asked for, runs the tests and exits with their status.
func Run(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		store.VerifyCreates(true)
	}
	os.Exit(m.Run())
}
