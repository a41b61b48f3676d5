package keyfile

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// zeroReader makes key generation deterministic: the seed is all zeros.
type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestAddLoad(t *testing.T) {
	home := t.TempDir()
	info, err := Add(home, "k", zeroReader{})
	if err != nil {
		t.Fatal(err)
	}
	// The all-zero seed gives RFC 8032's well-known public key (test 1 of section 7.1).
	const rfcPub = "3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29"
	if info != (Info{Name: "k", Type: "ed25519", PubKey: rfcPub}) {
		t.Fatalf("Add = %+v, want k/ed25519/%s", info, rfcPub)
	}
	path := filepath.Join(home, "keys", "k.json")
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("key file perms %04o, want 0600", st.Mode().Perm())
	}
	key, err := Load(home, "k")
	if err != nil {
		t.Fatal(err)
	}
	if hex.EncodeToString(key.Public().(ed25519.PublicKey)) != rfcPub || !bytes.Equal(key.Seed(), make([]byte, 32)) {
		t.Fatal("loaded key differs from the stored one")
	}
}

func TestLoadChecksPerms(t *testing.T) {
	home := t.TempDir()
	if _, err := Add(home, "k", zeroReader{}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(home, "keys", "k.json")
	for _, c := range []struct {
		perm os.FileMode
		ok   bool
	}{{0o600, true}, {0o400, true}, {0o700, true}, {0o640, false}, {0o604, false}, {0o644, false}, {0o610, false}} {
		if err := os.Chmod(path, c.perm); err != nil {
			t.Fatal(err)
		}
		_, err := Load(home, "k")
		if c.ok && err != nil {
			t.Errorf("perms %04o: %v", c.perm, err)
		}
		if !c.ok && (err == nil || !strings.Contains(err.Error(), "too open")) {
			t.Errorf("perms %04o: err %v, want too open", c.perm, err)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	home := t.TempDir()
	_, err := Load(home, "nobody")
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), `"nobody" in `+filepath.Join(home, "keys")) {
		t.Fatalf("missing key: err %v, want ErrNotFound naming it", err)
	}
	if _, err := Load(home, "../evil"); err == nil || !strings.Contains(err.Error(), "key name") {
		t.Fatalf("bad name: err %v", err)
	}
	if err := os.MkdirAll(filepath.Join(home, "keys"), 0o700); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(home, "keys", "bad.json")
	if err := os.WriteFile(bad, []byte(`{"type":"ed25519","priv_key":"00"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(home, "bad"); err == nil || !strings.Contains(err.Error(), "key file "+bad+": priv_key") {
		t.Fatalf("malformed key: err %v, want it to name %s", err, bad)
	}
}

func TestAddRefusesExisting(t *testing.T) {
	home := t.TempDir()
	first, err := Add(home, "dup", zeroReader{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Add(home, "dup", bytes.NewReader(bytes.Repeat([]byte{1}, 32)))
	if err == nil || !strings.Contains(err.Error(), `key "dup" already exists in `+filepath.Join(home, "keys")) {
		t.Fatalf("second add: err %v, want already exists", err)
	}
	key, err := Load(home, "dup")
	if err != nil || InfoOf("dup", key) != first {
		t.Fatalf("the first key was replaced: %v", err)
	}
	if _, err := Add(home, "short", bytes.NewReader(make([]byte, 31))); err == nil || !strings.Contains(err.Error(), `generate key "short"`) {
		t.Fatalf("short entropy: err %v", err)
	}
}

func TestList(t *testing.T) {
	home := t.TempDir()
	infos, err := List(home)
	if err != nil || infos == nil || len(infos) != 0 {
		t.Fatalf("no keys dir: %v, %v; want an empty, non-nil list", infos, err)
	}
	b, err := Add(home, "b", zeroReader{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := Add(home, "a", bytes.NewReader(bytes.Repeat([]byte{1}, 32)))
	if err != nil {
		t.Fatal(err)
	}
	// Not keys: a directory named like one and a file without the .json suffix.
	if err := os.Mkdir(filepath.Join(home, "keys", "dir.json"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "keys", "notes.txt"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	infos, err = List(home)
	if err != nil || len(infos) != 2 || infos[0] != a || infos[1] != b {
		t.Fatalf("List = %+v, %v; want a then b", infos, err)
	}
	if err := os.Chmod(filepath.Join(home, "keys", "a.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := List(home); err == nil || !strings.Contains(err.Error(), "too open") {
		t.Fatalf("List with an open key file: err %v", err)
	}
}
