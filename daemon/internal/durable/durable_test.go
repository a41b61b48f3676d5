package durable

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	for _, content := range []string{"first", "second, longer", ""} {
		if err := WriteFile(path, []byte(content), 0o640); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil || string(b) != content {
			t.Fatalf("read %q, %v; want %q", b, err, content)
		}
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v", fi.Mode())
	}
	if names, _ := os.ReadDir(dir); len(names) != 1 {
		t.Fatalf("left behind: %v", names)
	}
	var de *Error
	if err := WriteFile(filepath.Join(dir, "missing", "f"), nil, 0o600); !errors.As(err, &de) || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("in a missing directory: %v", err)
	}
}
