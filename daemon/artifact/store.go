package artifact

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/scoringsubnet/validatord/daemon/internal/durable"
)

// ErrNotFound is returned by Get for a hash the store does not hold.
var ErrNotFound = errors.New("artifact: not found")

// ErrCorrupt is wrapped in the *StoreError of a Get whose file no longer
// hashes to its name.
var ErrCorrupt = errors.New("file content does not match its hash")

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
	if err := durable.WriteFile(path, b, 0o644); err != nil {
		return nil, &StoreError{Op: "put", Path: path, Err: err}
	}
	return hash, nil
}

// Get returns the bytes stored under hash, or ErrNotFound; a file whose
// bytes no longer match the hash is a *StoreError wrapping ErrCorrupt.
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
	// A file changed on disk would be served to validators as a mismatch;
	// better to say so here.
	if !bytes.Equal(Hash(b), hash) {
		return nil, &StoreError{Op: "read", Path: s.binPath(h), Err: ErrCorrupt}
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
	if err := durable.WriteFile(s.pubPath(h), nil, 0o644); err != nil {
		return &StoreError{Op: "publish", Path: s.pubPath(h), Err: err}
	}
	return nil
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
