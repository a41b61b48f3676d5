package keyfile

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// Add creates a new key from entropy and stores it in home with 0600 perms; it
// refuses to replace an existing key.
func Add(home, name string, entropy io.Reader) (Info, error) {
	path, err := Path(home, name)
	if err != nil {
		return Info{}, err
	}
	_, priv, err := ed25519.GenerateKey(entropy)
	if err != nil {
		return Info{}, fmt.Errorf("generate key %q: %w", name, err)
	}
	bz, err := encode(name, priv)
	if err != nil {
		return Info{}, err
	}
	if err := os.MkdirAll(Dir(home), 0o700); err != nil {
		return Info{}, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return Info{}, fmt.Errorf("key %q already exists in %s", name, Dir(home))
		}
		return Info{}, err
	}
	if _, err := f.Write(bz); err != nil {
		f.Close()
		return Info{}, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return Info{}, err
	}
	if err := f.Close(); err != nil {
		return Info{}, err
	}
	return InfoOf(name, priv), nil
}

// Load reads key name of home and checks that it is well formed (see Decode) and
// not readable by group or others. A missing file is ErrNotFound.
func Load(home, name string) (ed25519.PrivateKey, error) {
	path, err := Path(home, name)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w: %q in %s (create it with `validatord keys add %s --home %s`)", ErrNotFound, name, Dir(home), name, home)
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
	return Decode(path, bz)
}

// List loads every key of home (files <name>.json of its keys directory) and returns
// their Info sorted by name; a home without a keys directory has none. One key that
// does not Load fails the whole list.
func List(home string) ([]Info, error) {
	entries, err := os.ReadDir(Dir(home))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return []Info{}, nil
		}
		return nil, err
	}
	infos := []Info{}
	for _, e := range entries {
		name, isKey := strings.CutSuffix(e.Name(), ".json")
		if e.IsDir() || !isKey {
			continue
		}
		key, err := Load(home, name)
		if err != nil {
			return nil, err
		}
		infos = append(infos, InfoOf(name, key))
	}
	sort.Slice(infos, func(i, j int) bool { return infos[i].Name < infos[j].Name })
	return infos, nil
}
