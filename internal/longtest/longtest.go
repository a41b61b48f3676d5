package longtest

import (
	"os"
	"testing"
)

// Env is the variable that runs the long tests: VALIDATORD_LONG_TESTS=1.
const Env = "VALIDATORD_LONG_TESTS"

// Enabled reports whether the long tests run in this process.
func Enabled() bool { return os.Getenv(Env) == "1" }

// Skip skips t unless the long tests run (Env=1), saying where they do.
func Skip(t testing.TB) {
	t.Helper()
	if !Enabled() {
		t.Skipf("long scenario: `make e2e` runs it (%s=1)", Env)
	}
}
