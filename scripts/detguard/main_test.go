package detguard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestConsensusCodeIsDeterministic is the guard itself: it fails on any finding in app/, x/,
// genesis/ and proto/.
func TestConsensusCodeIsDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the whole module")
	}
	root := repoRoot(t)
	dirs, err := ConsensusDirs(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no consensus packages found")
	}
	c, err := NewChecker(root, "./app/...", "./x/...", "./genesis/...")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		fs, err := c.CheckDir(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fs {
			t.Errorf("%s", f)
		}
	}
	fs, err := CheckProtos(filepath.Join(root, "proto"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		t.Errorf("%s", f)
	}
}

// TestGuardCatchesEachConstruct runs the checker over testdata/bad, which holds one of each
// banned construct, so a guard that silently stops finding things fails here.
func TestGuardCatchesEachConstruct(t *testing.T) {
	root := repoRoot(t)
	c, err := NewChecker(root, "github.com/shopspring/decimal", "time", "math/rand", "sort")
	if err != nil {
		t.Fatal(err)
	}
	fs, err := c.CheckDir("testdata/bad")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fs {
		got = append(got, f.Reason)
	}
	joined := strings.Join(got, "\n")
	want := []string{
		"imports math/rand",
		"uses float64",
		"calls time.Now",
		"starts a goroutine",
		"ranges over a map",
		"calls decimal Div ",
		"calls decimal NewFromFloat ",
		"calls decimal ExpTaylor ",
		"uses decimal package variable DivisionPrecision",
	}
	for _, w := range want {
		if !strings.Contains(joined, w) {
			t.Errorf("guard missed %q; findings:\n%s", w, joined)
		}
	}
	// The annotated map range and the explicit-precision calls must not be reported.
	if n := strings.Count(joined, "ranges over a map"); n != 1 {
		t.Errorf("want exactly 1 map-range finding (the annotated one is allowed), got %d", n)
	}
	if len(fs) != len(want) {
		t.Errorf("want %d findings, got %d:\n%s", len(want), len(fs), joined)
	}
}

func TestProtoCheck(t *testing.T) {
	dir := t.TempDir()
	src := "syntax = \"proto3\";\nmessage A {\n  map<string, string> m = 1; // bad\n  double d = 2;\n  string ok = 3; // a double in a comment is fine\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "a.proto"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	fs, err := CheckProtos(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 2 {
		t.Fatalf("want 2 findings, got %v", fs)
	}
}
