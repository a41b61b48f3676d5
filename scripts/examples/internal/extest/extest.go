package extest

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/daemon/extcmd"
)

// Build compiles the main package in dir (relative to the test's working
// directory, the example's own: "." for itself, "../solver" for a sibling)
// and returns the binary's path.
func Build(t testing.TB, dir string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), filepath.Base(filepath.Clean(dir))+".bin")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// Run runs the binary with args and stdin as a daemon would.
func Run(t testing.TB, bin string, stdin []byte, args ...string) ([]byte, error) {
	t.Helper()
	c := extcmd.Command{Argv: append([]string{bin}, args...), Timeout: 30 * time.Second}
	return c.Run(context.Background(), stdin)
}
