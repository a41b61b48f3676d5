package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/internal/keyfile"
)

// runCmdIn is runCmd with stdin.
func runCmdIn(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb}, args)
	return code, out.String(), errb.String()
}

func TestKeysOutputText(t *testing.T) {
	home := t.TempDir()
	bob, err := keyfile.Add(home, "bob", bytes.NewReader(make([]byte, 32)))
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd(t, "keys", "list", "-o", "text", "--home", home)
	if want := "NAME  TYPE     PUB_KEY\nbob   ed25519  " + bob.PubKey + "\n"; code != 0 || out != want {
		t.Fatalf("keys list -o text: exit %d, %q (stderr %q), want %q", code, out, errOut, want)
	}
	code, out, _ = runCmd(t, "keys", "show", "bob", "--output", "text", "--home", home)
	if code != 0 || !strings.HasSuffix(out, "bob   ed25519  "+bob.PubKey+"\n") {
		t.Fatalf("keys show --output text: exit %d, %q", code, out)
	}
	// one key still lists as an array in JSON
	_, out, _ = runCmd(t, "keys", "list", "-o", "json", "--home", home)
	var list []keyfile.Info
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 {
		t.Fatalf("keys list -o json: %q, %v", out, err)
	}
	if code, _, errOut := runCmd(t, "keys", "list", "-o", "yaml", "--home", home); code != 1 || !strings.Contains(errOut, `"yaml", want json or text`) {
		t.Fatalf("-o yaml: exit %d, %q", code, errOut)
	}
}

func TestKeysDelete(t *testing.T) {
	home := t.TempDir()
	if _, err := keyfile.Add(home, "alice", bytes.NewReader(make([]byte, 32))); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(home, "keys", "alice.json")
	for _, answer := range []string{"", "n\n", "no\n"} {
		code, _, errOut := runCmdIn(t, answer, "keys", "delete", "alice", "--home", home)
		if code != 1 || !strings.Contains(errOut, "[y/N]") || !strings.Contains(errOut, `key "alice" not deleted: not confirmed`) {
			t.Fatalf("answer %q: exit %d, stderr %q", answer, code, errOut)
		}
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("answer %q deleted the key: %v", answer, err)
		}
	}
	code, _, errOut := runCmd(t, "keys", "delete", "alcie", "--yes", "--home", home)
	if code != 1 || !strings.Contains(errOut, `key not found: "alcie"`) || !strings.Contains(errOut, "(did you mean alice?)") {
		t.Fatalf("delete of a missing key: exit %d, stderr %q", code, errOut)
	}
	if code, out, errOut := runCmdIn(t, "y\n", "keys", "delete", "alice", "--home", home); code != 0 || out != "deleted key \"alice\"\n" {
		t.Fatalf("delete confirmed: exit %d, %q, %q", code, out, errOut)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the key file is still there: %v", err)
	}
	if _, err := keyfile.Add(home, "carol", bytes.NewReader(make([]byte, 32))); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCmd(t, "keys", "delete", "carol", "-y", "--home", home); code != 0 || strings.Contains(errOut, "[y/N]") {
		t.Fatalf("delete -y: exit %d, stderr %q (asked?)", code, errOut)
	}
}

func TestKeysExportImport(t *testing.T) {
	from, to := t.TempDir(), t.TempDir()
	bob, err := keyfile.Add(from, "bob", bytes.NewReader(make([]byte, 32)))
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd(t, "keys", "export", "bob", "--home", from)
	if code != 0 || !strings.Contains(out, `"priv_key"`) || !strings.Contains(errOut, "holds the private key") {
		t.Fatalf("export to stdout: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	file := filepath.Join(t.TempDir(), "bob.key")
	if code, out, errOut := runCmd(t, "keys", "export", "bob", "--out", file, "--home", from); code != 0 || out != "" || !strings.Contains(errOut, "holds the private key") {
		t.Fatalf("export --out: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if st, err := os.Stat(file); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("exported file: %v, %v, want mode 0600", st, err)
	}
	if code, _, errOut := runCmd(t, "keys", "export", "bob", "--out", file, "--home", from); code != 1 || !strings.Contains(errOut, "--out:") {
		t.Fatalf("export over an existing file: exit %d, %q", code, errOut)
	}
	if code, _, errOut := runCmd(t, "keys", "export", "bbo", "--home", from); code != 1 || !strings.Contains(errOut, "(did you mean bob?)") {
		t.Fatalf("export of a missing key: exit %d, %q", code, errOut)
	}

	// into a home that does not exist yet, as keys add may
	code, out, errOut = runCmd(t, "keys", "import", "robert", file, "--home", to)
	var info keyfile.Info
	if code != 0 || json.Unmarshal([]byte(out), &info) != nil || info.Name != "robert" || info.PubKey != bob.PubKey || strings.Contains(out, "priv") {
		t.Fatalf("import: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, _, errOut := runCmd(t, "keys", "import", "robert", file, "--home", to); code != 1 || !strings.Contains(errOut, `key "robert" already exists`) || !strings.Contains(errOut, "--force") {
		t.Fatalf("import over a key: exit %d, %q", code, errOut)
	}
	other, err := keyfile.Add(from, "zed", bytes.NewReader(bytes.Repeat([]byte{7}, 32)))
	if err != nil {
		t.Fatal(err)
	}
	_, zed, _ := runCmd(t, "keys", "export", "zed", "--home", from)
	if code, out, errOut := runCmdIn(t, zed, "keys", "import", "robert", "-", "--force", "-o", "text", "--home", to); code != 0 || !strings.Contains(out, other.PubKey) {
		t.Fatalf("import - --force: exit %d, %q, %q", code, out, errOut)
	}
	bad := filepath.Join(t.TempDir(), "bad.key")
	if err := os.WriteFile(bad, []byte(strings.Replace(zed, `"ed25519"`, `"sr25519"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCmd(t, "keys", "import", "x", bad, "--home", to); code != 1 || !strings.Contains(errOut, "key file "+bad+": type") {
		t.Fatalf("import of a bad file: exit %d, %q", code, errOut)
	}
}

func TestKeysFlagsBelongToTheirSubcommand(t *testing.T) {
	home := t.TempDir()
	if _, err := keyfile.Add(home, "bob", bytes.NewReader(make([]byte, 32))); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"keys", "list", "--yes"}, "--yes: only for keys delete"},
		{[]string{"keys", "show", "bob", "--force"}, "--force: only for keys import"},
		{[]string{"keys", "delete", "bob", "--out", "f"}, "--out: only for keys export"},
		{[]string{"keys", "export", "bob", "-o", "text"}, "-o: only for keys add, list, show, import"},
		{[]string{"keys", "lst"}, `unknown subcommand "lst" (did you mean list?)`}, // before the home is looked at
		{[]string{"keys", "delte", "bob"}, `(did you mean delete?)`},
	} {
		code, _, errOut := runCmd(t, append(c.args, "--home", filepath.Join(home, "none"))...)
		if c.args[1] != "lst" && c.args[1] != "delte" {
			code, _, errOut = runCmd(t, append(c.args, "--home", home)...)
		}
		if code != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, %q, want %q", strings.Join(c.args, " "), code, errOut, c.want)
		}
	}
}
