package keyfile_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/internal/keyfile"
)

func TestExportImportDelete(t *testing.T) {
	from, to := t.TempDir(), t.TempDir()
	added, err := keyfile.Add(from, "bob", bytes.NewReader(make([]byte, 32)))
	if err != nil {
		t.Fatal(err)
	}
	bz, err := keyfile.Export(from, "bob")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(bz, []byte(`"priv_key"`)) {
		t.Fatalf("export holds no private key: %s", bz)
	}
	// imported under another name: the file carries the new name
	info, err := keyfile.Import(to, "robert", "bob.json", bz, false)
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "robert" || info.PubKey != added.PubKey {
		t.Fatalf("imported %+v, want robert with %s", info, added.PubKey)
	}
	st, err := os.Stat(filepath.Join(to, "keys", "robert.json"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("imported file: %v, %v", st, err)
	}
	if got, err := keyfile.Export(to, "robert"); err != nil || !bytes.Contains(got, []byte(`"name": "robert"`)) {
		t.Fatalf("export of the import: %s, %v", got, err)
	}

	if _, err := keyfile.Import(to, "robert", "bob.json", bz, false); !errors.Is(err, keyfile.ErrExists) {
		t.Fatalf("import over an existing key: %v, want ErrExists", err)
	}
	other, err := keyfile.Add(from, "carol", bytes.NewReader(bytes.Repeat([]byte{1}, 32)))
	if err != nil {
		t.Fatal(err)
	}
	carol, err := keyfile.Export(from, "carol")
	if err != nil {
		t.Fatal(err)
	}
	if info, err := keyfile.Import(to, "robert", "carol.json", carol, true); err != nil || info.PubKey != other.PubKey {
		t.Fatalf("import with replace: %+v, %v", info, err)
	}
	if list, err := keyfile.List(to); err != nil || len(list) != 1 || list[0].PubKey != other.PubKey {
		t.Fatalf("after replace, List = %+v, %v (no temporary file, the new key)", list, err)
	}

	if err := keyfile.Delete(to, "robert"); err != nil {
		t.Fatal(err)
	}
	if _, err := keyfile.Load(to, "robert"); !errors.Is(err, keyfile.ErrNotFound) {
		t.Fatalf("load after delete: %v", err)
	}
	if err := keyfile.Delete(to, "robert"); !errors.Is(err, keyfile.ErrNotFound) {
		t.Fatalf("delete of a missing key: %v, want ErrNotFound", err)
	}
	if err := keyfile.Delete(to, "../x"); err == nil || !strings.Contains(err.Error(), "key name") {
		t.Fatalf("delete of a bad name: %v", err)
	}
}

func TestImportChecksTheFile(t *testing.T) {
	home := t.TempDir()
	for _, bz := range []string{
		`not json`,
		`{"name":"x","type":"ed25519","pub_key":"00","priv_key":"00"}`,
		`{"name":"x","type":"sr25519","pub_key":"","priv_key":""}`,
		`{"name":"x","type":"ed25519","pub_key":"","priv_key":"","extra":1}`,
	} {
		if _, err := keyfile.Import(home, "x", "in.json", []byte(bz), false); err == nil || !strings.Contains(err.Error(), "key file in.json") {
			t.Errorf("import of %s: %v, want an error naming in.json", bz, err)
		}
	}
	if list, _ := keyfile.List(home); len(list) != 0 {
		t.Fatalf("a refused import left %+v", list)
	}
}

// TestNames: Names lists key files without reading them, so a file that
// does not load (which List refuses) is still named, and can be deleted.
func TestNames(t *testing.T) {
	home := t.TempDir()
	if names, err := keyfile.Names(home); err != nil || len(names) != 0 {
		t.Fatalf("Names of a home without keys/: %q, %v", names, err)
	}
	if _, err := keyfile.Add(home, "b", bytes.NewReader(make([]byte, 32))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "keys", "a.json"), []byte("broken"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "keys", "notes.txt"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if names, err := keyfile.Names(home); err != nil || strings.Join(names, " ") != "a b" {
		t.Fatalf("Names = %q, %v, want a b", names, err)
	}
	if _, err := keyfile.List(home); err == nil {
		t.Fatal("List loaded a broken key file")
	}
	if err := keyfile.Delete(home, "a"); err != nil {
		t.Fatalf("delete of a broken key file: %v", err)
	}
}
