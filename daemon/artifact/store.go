package artifact

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrNotFound is returned by Get for a hash the store does not hold.
var ErrNotFound = errors.New("artifact: not found")

// StoreError reports a filesystem failure of the store, naming the file.
type StoreError struct {
	Op   string
	Path string
	Err  error
}

func (e *StoreError) Error() string {
	return fmt.Sprintf("artifact store: %s %s: %v", e.Op, e.Path, e.Err)
}

func (e *StoreError) Unwrap() error { return e.Err }

// Store keeps artifacts as files <dir>/<hex>.bin, each written atomically,
// and marks the published ones with an empty file <dir>/<hex>.pub. It is safe
// for concurrent use, also by several processes sharing the directory,
// because every file appears whole by rename.
type Store struct {
	dir string
}

// OpenStore opens (creating if needed) the store in dir.
func OpenStore(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, &StoreError{Op: "create", Path: dir, Err: err}
	}
	return &Store{dir: dir}, nil
}

// Dir returns the store's directory.
func (s *Store) Dir() string { return s.dir }

func (s *Store) binPath(h string) string { return filepath.Join(s.dir, h+".bin") }
func (s *Store) pubPath(h string) string { return filepath.Join(s.dir, h+".pub") }

// Put stores b and returns Hash(b). Storing the same bytes again is a no-op.
func (s *Store) Put(b []byte) ([]byte, error) {
	hash := Hash(b)
	h, _ := checkHash(hash)
	path := s.binPath(h)
	if have, err := os.ReadFile(path); err == nil && bytes.Equal(have, b) {
		return hash, nil
	}
	if err := writeAtomic(s.dir, path, b); err != nil {
		return nil, err
	}
	return hash, nil
}

// Get returns the bytes stored under hash, or ErrNotFound.
func (s *Store) Get(hash []byte) ([]byte, error) {
	h, err := checkHash(hash)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(s.binPath(h))
	if errors.Is(err, os.ErrNotExist) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, &StoreError{Op: "read", Path: s.binPath(h), Err: err}
	}
	return b, nil
}

// Publish makes the artifact served by Handler from now on. The miner calls
// it only once its reveal is on chain, so nobody can see work before it is
// committed and revealed. The artifact must be in the store (ErrNotFound).
func (s *Store) Publish(hash []byte) error {
	h, err := checkHash(hash)
	if err != nil {
		return err
	}
	if _, err := os.Stat(s.binPath(h)); errors.Is(err, os.ErrNotExist) {
		return ErrNotFound
	} else if err != nil {
		return &StoreError{Op: "stat", Path: s.binPath(h), Err: err}
	}
	if s.Published(hash) {
		return nil
	}
	return writeAtomic(s.dir, s.pubPath(h), nil)
}

// Published reports whether the artifact is published.
func (s *Store) Published(hash []byte) bool {
	h, err := checkHash(hash)
	if err != nil {
		return false
	}
	_, err = os.Stat(s.pubPath(h))
	return err == nil
}

// writeAtomic writes b to path so that a reader or a crash sees either no
// file or the whole of it: a temporary file in the same directory, fsynced,
// renamed over path, and the directory fsynced so the rename is durable.
func writeAtomic(dir, path string, b []byte) error {
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return &StoreError{Op: "create temp in", Path: dir, Err: err}
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			_ = f.Close()
			_ = os.Remove(tmp)
		}
	}()
	if _, err := f.Write(b); err != nil {
		return &StoreError{Op: "write", Path: tmp, Err: err}
	}
	if err := f.Sync(); err != nil {
		return &StoreError{Op: "fsync", Path: tmp, Err: err}
	}
	if err := f.Chmod(0o644); err != nil {
		return &StoreError{Op: "chmod", Path: tmp, Err: err}
	}
	if err := f.Close(); err != nil {
		return &StoreError{Op: "close", Path: tmp, Err: err}
	}
	if err := os.Rename(tmp, path); err != nil {
		return &StoreError{Op: "rename to", Path: path, Err: err}
	}
	ok = true
	return syncDir(dir)
}

// syncDir fsyncs a directory so a rename inside it survives a crash.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return &StoreError{Op: "open", Path: dir, Err: err}
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return &StoreError{Op: "fsync", Path: dir, Err: err}
	}
	return nil
}
