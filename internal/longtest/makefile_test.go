package longtest

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var (
	// skipRE finds a test that starts with longtest.Skip.
	skipRE = regexp.MustCompile(`func (Test\w+)\(t \*testing\.T\) \{\n\tlongtest\.Skip\(t\)`)
	// listRE finds the Makefile's list of the long tests.
	listRE = regexp.MustCompile(`(?m)^LONG_TESTS\s*:=\s*\^\(([^)]*)\)\$\$$`)
)

// TestMakefileRunsEveryLongTest: the tests that skip themselves are exactly
// those that `make test-long` (part of `make e2e`) names, so none of them
// is skipped everywhere.
func TestMakefileRunsEveryLongTest(t *testing.T) {
	root := "../.."
	mk, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := listRE.FindSubmatch(mk)
	if m == nil {
		t.Fatal("Makefile has no LONG_TESTS := ^(A|B)$$ line")
	}
	listed := strings.Split(string(m[1]), "|")
	var skipping []string
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, f := range skipRE.FindAllSubmatch(src, -1) {
			skipping = append(skipping, string(f[1]))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(listed)
	slices.Sort(skipping)
	if len(skipping) == 0 || !slices.Equal(listed, skipping) {
		t.Errorf("Makefile's LONG_TESTS names %v; the tests that call longtest.Skip first are %v", listed, skipping)
	}
}
