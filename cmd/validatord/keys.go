package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

func init() {
	register(Command{Name: "keys", Summary: "add, list and show ed25519 tx signing keys (keys add|list|show NAME)", Run: runKeys})
}

const keysUsage = "keys add|list|show [NAME] [--home DIR]"

// keyNamePattern keeps key names safe as file names.
var keyNamePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// ErrKeyNotFound is returned when no key file has the given name.
var ErrKeyNotFound = errors.New("key not found")

// keyFile is the JSON form of a key on disk.
type keyFile struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	PubKey  string `json:"pub_key"`  // hex, 32 bytes
	PrivKey string `json:"priv_key"` // hex, 64 bytes (seed ‖ public key)
}

// keyInfo is what the commands print about a key: never the private part.
type keyInfo struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	PubKey string `json:"pub_key"`
}

func runKeys(_ context.Context, env Env, args []string) error {
	fs := newFlags("keys")
	home := homeFlag(fs)
	pos, ok, err := parseFlags(env, fs, keysUsage, args)
	if !ok || err != nil {
		return err
	}
	if len(pos) == 0 {
		return fmt.Errorf("missing subcommand; usage: validatord %s", keysUsage)
	}
	switch pos[0] {
	case "add":
		if err := wantArgs(pos[1:], 1, "keys add NAME"); err != nil {
			return err
		}
		info, err := addKey(*home, pos[1], rand.Reader)
		if err != nil {
			return err
		}
		return printJSON(env.Stdout, info)
	case "show":
		if err := wantArgs(pos[1:], 1, "keys show NAME"); err != nil {
			return err
		}
		key, err := loadKey(*home, pos[1])
		if err != nil {
			return err
		}
		return printJSON(env.Stdout, infoOf(pos[1], key))
	case "list":
		if err := wantArgs(pos[1:], 0, "keys list"); err != nil {
			return err
		}
		infos, err := listKeys(*home)
		if err != nil {
			return err
		}
		return printJSON(env.Stdout, infos)
	default:
		return fmt.Errorf("unknown subcommand %q; usage: validatord %s", pos[0], keysUsage)
	}
}

// keyPath checks name and returns the file of key name in home.
func keyPath(home, name string) (string, error) {
	if !keyNamePattern.MatchString(name) {
		return "", fmt.Errorf("key name %q: want 1-64 letters, digits, '_', '.', '-' (not starting with '.', '_' or '-')", name)
	}
	return filepath.Join(keysDir(home), name+".json"), nil
}

// addKey creates a new key from entropy and stores it with 0600 perms; it
// refuses to replace an existing key.
func addKey(home, name string, entropy io.Reader) (keyInfo, error) {
	path, err := keyPath(home, name)
	if err != nil {
		return keyInfo{}, err
	}
	pub, priv, err := ed25519.GenerateKey(entropy)
	if err != nil {
		return keyInfo{}, fmt.Errorf("generate key %q: %w", name, err)
	}
	kf := keyFile{Name: name, Type: "ed25519", PubKey: hex.EncodeToString(pub), PrivKey: hex.EncodeToString(priv)}
	bz, err := json.MarshalIndent(kf, "", "  ")
	if err != nil {
		return keyInfo{}, err
	}
	if err := os.MkdirAll(keysDir(home), 0o700); err != nil {
		return keyInfo{}, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return keyInfo{}, fmt.Errorf("key %q already exists in %s", name, keysDir(home))
		}
		return keyInfo{}, err
	}
	if _, err := f.Write(append(bz, '\n')); err != nil {
		f.Close()
		return keyInfo{}, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return keyInfo{}, err
	}
	if err := f.Close(); err != nil {
		return keyInfo{}, err
	}
	return infoOf(name, priv), nil
}

// loadKey reads key name of home and checks that it is well formed and not
// readable by group or others.
func loadKey(home, name string) (ed25519.PrivateKey, error) {
	path, err := keyPath(home, name)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w: %q in %s (create it with `validatord keys add %s --home %s`)", ErrKeyNotFound, name, keysDir(home), name, home)
		}
		return nil, err
	}
	if st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("key file %s: perms %04o are too open, want 0600", path, st.Mode().Perm())
	}
	bz, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return decodeKeyFile(path, bz)
}

// decodeKeyFile parses a key file and checks that its parts agree.
func decodeKeyFile(path string, bz []byte) (ed25519.PrivateKey, error) {
	var kf keyFile
	dec := json.NewDecoder(bytes.NewReader(bz))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&kf); err != nil {
		return nil, fmt.Errorf("key file %s: %v", path, err)
	}
	if kf.Type != "ed25519" {
		return nil, fmt.Errorf("key file %s: type: %q, want \"ed25519\"", path, kf.Type)
	}
	priv, err := hex.DecodeString(kf.PrivKey)
	if err != nil || len(priv) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("key file %s: priv_key: want %d bytes of hex", path, ed25519.PrivateKeySize)
	}
	key := ed25519.NewKeyFromSeed(priv[:ed25519.SeedSize])
	if hex.EncodeToString(key.Public().(ed25519.PublicKey)) != strings.ToLower(kf.PubKey) {
		return nil, fmt.Errorf("key file %s: pub_key: %q does not match the private key", path, kf.PubKey)
	}
	return key, nil
}

// listKeys returns the keys of home sorted by name.
func listKeys(home string) ([]keyInfo, error) {
	entries, err := os.ReadDir(keysDir(home))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return []keyInfo{}, nil
		}
		return nil, err
	}
	infos := []keyInfo{}
	for _, e := range entries {
		name, isKey := strings.CutSuffix(e.Name(), ".json")
		if e.IsDir() || !isKey {
			continue
		}
		key, err := loadKey(home, name)
		if err != nil {
			return nil, err
		}
		infos = append(infos, infoOf(name, key))
	}
	sort.Slice(infos, func(i, j int) bool { return infos[i].Name < infos[j].Name })
	return infos, nil
}

func infoOf(name string, key ed25519.PrivateKey) keyInfo {
	return keyInfo{Name: name, Type: "ed25519", PubKey: hex.EncodeToString(key.Public().(ed25519.PublicKey))}
}

// printJSON writes v as indented JSON and a newline.
func printJSON(w io.Writer, v any) error {
	bz, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", bz)
	return err
}
