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
	if err := write(home, name, path, priv, false); err != nil {
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
			return nil, notFound(home, name)
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

// Names are the names of the key files of home, sorted, without reading
// them (a file that does not Load is named too); none when keys/ is missing.
func Names(home string) ([]string, error) {
	entries, err := os.ReadDir(Dir(home))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return []string{}, nil
		}
		return nil, err
	}
	names := []string{}
	for _, e := range entries {
		name, isKey := strings.CutSuffix(e.Name(), ".json")
		if e.IsDir() || !isKey {
			continue
		}
		names = append(names, name)
	}
	sort.Strings(names)
	return names, nil
}

// List loads every key of home (files <name>.json of its keys directory) and returns
// their Info sorted by name; a home without a keys directory has none. One key that
// does not Load fails the whole list.
func List(home string) ([]Info, error) {
	names, err := Names(home)
	if err != nil {
		return nil, err
	}
	infos := []Info{}
	for _, name := range names {
		key, err := Load(home, name)
		if err != nil {
			return nil, err
		}
		infos = append(infos, InfoOf(name, key))
	}
	return infos, nil
}

// write stores key under name at path (Path of home and name) with 0600
// perms. Without replace it refuses an existing file (ErrExists); with it,
// the new file takes the old one's place in one rename, so a reader sees
// the old key or the new one, never a part of either.
func write(home, name, path string, key ed25519.PrivateKey, replace bool) error {
	bz, err := encode(name, key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(Dir(home), 0o700); err != nil {
		return err
	}
	if !replace {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			if errors.Is(err, os.ErrExist) {
				return fmt.Errorf("key %q %w in %s", name, ErrExists, Dir(home))
			}
			return err
		}
		return writeClose(f, bz)
	}
	// CreateTemp makes the file 0600; its name does not end in .json, so
	// List never sees it.
	f, err := os.CreateTemp(Dir(home), "."+name+".*.tmp")
	if err != nil {
		return err
	}
	if err := writeClose(f, bz); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// writeClose writes bz to f, syncs and closes it.
func writeClose(f *os.File, bz []byte) error {
	if _, err := f.Write(bz); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// notFound is Load's and Delete's error for a name without a file.
func notFound(home, name string) error {
	return fmt.Errorf("%w: %q in %s (create it with `validatord keys add %s --home %s`)", ErrNotFound, name, Dir(home), name, home)
}

// Delete removes key name of home; a missing file is ErrNotFound. It does
// not read the file first, so a key file that no longer loads can go too.
func Delete(home, name string) error {
	path, err := Path(home, name)
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return notFound(home, name)
		}
		return err
	}
	return nil
}

// Export is the content of key name's file, after Load checked it: what
// Import takes back, here or in another home.
func Export(home, name string) ([]byte, error) {
	key, err := Load(home, name)
	if err != nil {
		return nil, err
	}
	return encode(name, key)
}

// Import stores the key of the key file content bz (checked as Decode
// does; src names it in errors) under name in home. An existing key of
// that name is ErrExists unless replace.
func Import(home, name, src string, bz []byte, replace bool) (Info, error) {
	path, err := Path(home, name)
	if err != nil {
		return Info{}, err
	}
	key, err := Decode(src, bz)
	if err != nil {
		return Info{}, err
	}
	if err := write(home, name, path, key, replace); err != nil {
		return Info{}, err
	}
	return InfoOf(name, key), nil
}
