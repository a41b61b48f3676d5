package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCmd runs the CLI as main does and returns the exit code and outputs.
func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, args)
	return code, out.String(), errb.String()
}

// zeroReader makes key generation deterministic: the seed is all zeros.
type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestKeysAddShowList(t *testing.T) {
	home := t.TempDir()
	code, out, errOut := runCmd(t, "keys", "add", "bob", "--home", home)
	if code != 0 {
		t.Fatalf("keys add: code %d, stderr %q", code, errOut)
	}
	var added keyInfo
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
	var list []keyInfo
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Name != "alice" || list[1].Name != "bob" || list[1].PubKey != added.PubKey {
		t.Fatalf("keys list = %+v, want alice then bob", list)
	}
}

func TestKeysErrors(t *testing.T) {
	home := t.TempDir()
	if _, err := addKey(home, "dup", zeroReader{}); err != nil {
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
	if _, err := addKey(home, "max"+strings.Repeat("a", 61), zeroReader{}); err != nil {
		t.Fatalf("64-char name refused: %v", err)
	}
}

func TestLoadKeyChecksFile(t *testing.T) {
	home := t.TempDir()
	info, err := addKey(home, "k", zeroReader{})
	if err != nil {
		t.Fatal(err)
	}
	// The all-zero seed gives RFC 8032's well-known public key.
	want := ed25519.NewKeyFromSeed(make([]byte, 32)).Public().(ed25519.PublicKey)
	if info.PubKey != hex.EncodeToString(want) {
		t.Fatalf("pub key %s, want %x", info.PubKey, want)
	}
	path := filepath.Join(home, "keys", "k.json")
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := loadKey(home, "k"); err == nil || !strings.Contains(err.Error(), "too open") {
		t.Fatalf("0644 key file: err %v, want too open", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	key, err := loadKey(home, "k")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(key.Public().(ed25519.PublicKey), want) {
		t.Fatal("loaded key differs from the stored one")
	}
}

func TestDecodeKeyFile(t *testing.T) {
	good := keyFile{Name: "k", Type: "ed25519"}
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32))
	good.PrivKey = hex.EncodeToString(priv)
	good.PubKey = hex.EncodeToString(priv.Public().(ed25519.PublicKey))
	enc := func(mut func(*keyFile)) []byte {
		k := good
		mut(&k)
		bz, _ := json.Marshal(k)
		return bz
	}
	other := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{8}, 32))
	cases := []struct {
		name string
		bz   []byte
		want string // "" = accepted
	}{
		{"good", enc(func(*keyFile) {}), ""},
		{"upper-case pub key", enc(func(k *keyFile) { k.PubKey = strings.ToUpper(k.PubKey) }), ""},
		{"wrong type", enc(func(k *keyFile) { k.Type = "secp256k1" }), "type"},
		{"short priv", enc(func(k *keyFile) { k.PrivKey = k.PrivKey[:126] }), "priv_key"},
		{"long priv", enc(func(k *keyFile) { k.PrivKey += "00" }), "priv_key"},
		{"not hex", enc(func(k *keyFile) { k.PrivKey = "zz" + k.PrivKey[2:] }), "priv_key"},
		{"mismatched pub", enc(func(k *keyFile) { k.PubKey = hex.EncodeToString(other.Public().(ed25519.PublicKey)) }), "does not match"},
		{"unknown field", []byte(`{"name":"k","type":"ed25519","extra":1}`), "unknown field"},
		{"garbage", []byte("{"), "key file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			key, err := decodeKeyFile("k.json", c.bz)
			if c.want == "" {
				if err != nil || !bytes.Equal(key, priv) {
					t.Fatalf("err %v, key equal %v", err, bytes.Equal(key, priv))
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want it to mention %q", err, c.want)
			}
		})
	}
}

func FuzzDecodeKeyFile(f *testing.F) {
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32))
	good, _ := json.Marshal(keyFile{Name: "k", Type: "ed25519", PrivKey: hex.EncodeToString(priv), PubKey: hex.EncodeToString(priv.Public().(ed25519.PublicKey))})
	f.Add(good)
	f.Add([]byte(`{"type":"ed25519","priv_key":"00","pub_key":""}`))
	f.Add([]byte(`null`))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, bz []byte) {
		key, err := decodeKeyFile("fuzz.json", bz)
		if err != nil {
			if key != nil {
				t.Fatal("key returned with an error")
			}
			return
		}
		// Accepted: the key must be whole and consistent with its file.
		var kf keyFile
		if json.Unmarshal(bz, &kf) != nil {
			t.Fatal("accepted a file that does not unmarshal")
		}
		if len(key) != ed25519.PrivateKeySize || !strings.EqualFold(kf.PubKey, hex.EncodeToString(key.Public().(ed25519.PublicKey))) {
			t.Fatalf("accepted an inconsistent key file %q", bz)
		}
	})
}
