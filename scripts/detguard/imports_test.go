package detguard

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// consensusPackages are the packages whose code runs in block execution.
var consensusPackages = []string{"./app/...", "./x/...", "./genesis/..."}

// sidecarImports are module paths consensus code must never depend on, even
// indirectly: the EVM client the gas oracle sidecar uses, and the repo's
// own client-side packages (a consensus package importing one would make
// a node's state depend on code written for users, not for replay).
var sidecarImports = []string{
	"github.com/ethereum/go-ethereum",
	"github.com/scoringsubnet/validatord/client",
	"github.com/scoringsubnet/validatord/cmd/",
	"github.com/scoringsubnet/validatord/scripts/",
	"github.com/scoringsubnet/validatord/offline",
	"github.com/scoringsubnet/validatord/internal/",
	"github.com/scoringsubnet/validatord/oracle",
}

// TestConsensusImportsNoSidecar: no consensus package depends, directly or
// through any chain of imports, on a sidecar module (`go list -deps`).
func TestConsensusImportsNoSidecar(t *testing.T) {
	args := append([]string{"list", "-deps", "-f", "{{.ImportPath}}"}, consensusPackages...)
	cmd := exec.Command("go", args...)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		n++
		dep := sc.Text()
		for _, bad := range sidecarImports {
			if dep == strings.TrimSuffix(bad, "/") || strings.HasPrefix(dep, bad) {
				t.Errorf("a consensus package depends on %s", dep)
			}
		}
	}
	if n < 50 {
		t.Fatalf("go list named %d packages: the check saw too little to prove anything", n)
	}
}
