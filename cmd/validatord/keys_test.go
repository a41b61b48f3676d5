package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/internal/keyfile"
)

// runCmd runs the CLI as main does and returns the exit code and outputs.
func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runCmdIn(t, "", args...)
}

func TestKeysAddShowList(t *testing.T) {
	home := t.TempDir()
	code, out, errOut := runCmd(t, "keys", "add", "bob", "--home", home)
	if code != 0 {
		t.Fatalf("keys add: code %d, stderr %q", code, errOut)
	}
	var added keyfile.Info
	if err := json.Unmarshal([]byte(out), &added); err != nil {
		t.Fatalf("keys add output %q: %v", out, err)
	}
	if added.Name != "bob" || added.Type != "ed25519" || len(added.PubKey) != 64 {
		t.Fatalf("keys add printed %+v", added)
	}
	if strings.Contains(out, "priv") {
		t.Fatalf("keys add printed the private key: %s", out)
	}
	st, err := os.Stat(filepath.Join(home, "keys", "bob.json"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("key file perms %04o, want 0600", st.Mode().Perm())
	}
	if code, out, _ := runCmd(t, "keys", "--home", home, "show", "bob"); code != 0 || !strings.Contains(out, added.PubKey) {
		t.Fatalf("keys show: code %d, out %q", code, out)
	}
	runCmd(t, "keys", "add", "alice", "--home", home)
	_, out, _ = runCmd(t, "keys", "list", "--home", home)
	var list []keyfile.Info
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Name != "alice" || list[1].Name != "bob" || list[1].PubKey != added.PubKey {
		t.Fatalf("keys list = %+v, want alice then bob", list)
	}
}

func TestKeysErrors(t *testing.T) {
	home := t.TempDir()
	if _, err := keyfile.Add(home, "dup", bytes.NewReader(make([]byte, 32))); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"duplicate", []string{"keys", "add", "dup", "--home", home}, "already exists"},
		{"bad name", []string{"keys", "add", "../evil", "--home", home}, "key name"},
		{"leading dot", []string{"keys", "add", ".hidden", "--home", home}, "key name"},
		{"name too long", []string{"keys", "add", strings.Repeat("a", 65), "--home", home}, "key name"},
		{"missing", []string{"keys", "show", "nobody", "--home", home}, "key not found"},
		{"no subcommand", []string{"keys", "--home", home}, "missing subcommand"},
		{"unknown subcommand", []string{"keys", "rm", "dup", "--home", home}, "unknown subcommand"},
		{"extra argument", []string{"keys", "show", "dup", "x", "--home", home}, "want 1 argument"},
		{"unknown flag", []string{"keys", "list", "--bogus"}, "flag provided but not defined"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runCmd(t, c.args...)
			if code != 1 {
				t.Fatalf("code %d, want 1 (stdout %q)", code, out)
			}
			if !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
				t.Fatalf("stderr %q: want one line containing %q", errOut, c.want)
			}
		})
	}
	if _, err := keyfile.Add(home, "max"+strings.Repeat("a", 61), bytes.NewReader(make([]byte, 32))); err != nil {
		t.Fatalf("64-char name refused: %v", err)
	}
}
