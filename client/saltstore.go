package client

import (
	"bytes"
	"cmp"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// RevealsDirName is the directory of the pending reveals inside a key home.
const RevealsDirName = "reveals"

// SaltStore keeps the pending reveals of one key on one chain in a key
// home, one file per target (docs/commit-reveal.md §10):
//
//	<home>/reveals/<chain id>/<sender key hex>/task-<id>.json
//	<home>/reveals/<chain id>/<sender key hex>/evm-<evm chain id>-<evm block>.json
//
// (a home holds several keys, and each may commit to the same target).
//
// Files have mode 0600 and the directories 0700: a pending reveal holds the
// payload before the chain shows it. An entry is written (fsync, then an
// atomic rename or link) before its commit is broadcast, so a crash can
// never leave a commit on chain whose salt is lost; it is removed once the
// reveal is in a block.
type SaltStore struct {
	dir     string
	chainID string
}

// PendingReveal is one entry of a SaltStore: what was committed to, by whom,
// and where the commit is.
type PendingReveal struct {
	Target  Target
	Sender  ed25519.PublicKey
	UID     uint32
	Payload *subnetv1.MsgSubmit
	Salt    Salt
	// CommitTx is the hash of the signed commit, stored before its broadcast.
	CommitTx string
	// CommitHeight is the commit's block, 0 until it was seen in one.
	CommitHeight int64
	// SubmissionID is the submission the commit created, once known.
	SubmissionID *uint64
}

// revealFile is the JSON form of a PendingReveal. The payload is kept as
// the exact gogoproto bytes that the commitment hashed (base64).
type revealFile struct {
	ChainID      string  `json:"chain_id"`
	Target       string  `json:"target"`
	Sender       string  `json:"sender"`
	UID          uint32  `json:"uid"`
	Payload      []byte  `json:"payload"`
	Salt         string  `json:"salt"`
	CommitTx     string  `json:"commit_tx"`
	CommitHeight int64   `json:"commit_height"`
	SubmissionID *uint64 `json:"submission_id"`
}

// NewSaltStore is the store of sender's pending reveals on chainID under
// home. Nothing is created until the first entry is written.
func NewSaltStore(home, chainID string, sender []byte) (*SaltStore, error) {
	if chainID == "" || chainID == "." || chainID == ".." || strings.ContainsAny(chainID, "/\\\x00") {
		return nil, fmt.Errorf("client: chain id %q cannot name a directory of pending reveals", chainID)
	}
	if len(sender) == 0 {
		return nil, fmt.Errorf("client: a store of pending reveals needs the sender's key")
	}
	return &SaltStore{dir: filepath.Join(home, RevealsDirName, chainID, hex.EncodeToString(sender)), chainID: chainID}, nil
}

// ChainID is the chain whose reveals the store keeps.
func (s *SaltStore) ChainID() string { return s.chainID }

// Dir is the directory of the store's files.
func (s *SaltStore) Dir() string { return s.dir }

// Path is the file of target's pending reveal.
func (s *SaltStore) Path(t Target) string { return filepath.Join(s.dir, t.Name()+".json") }

// Pending is the file of target's entry when there is one, else "".
func (s *SaltStore) Pending(t Target) string {
	if _, err := os.Lstat(s.Path(t)); err != nil {
		return ""
	}
	return s.Path(t)
}

// Targets are the targets of the store's entries, tasks first, then EVM
// blocks by chain and block; a file whose name names no target (a
// temporary file of a write) is not one.
func (s *SaltStore) Targets() ([]Target, error) {
	ents, err := os.ReadDir(s.dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Target
	for _, e := range ents {
		if t, ok := targetOfName(strings.TrimSuffix(e.Name(), ".json")); ok && strings.HasSuffix(e.Name(), ".json") {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b Target) int {
		return cmp.Or(cmp.Compare(b2i(a.Gas), b2i(b.Gas)), cmp.Compare(a.TaskID, b.TaskID),
			cmp.Compare(a.EVMChainID, b.EVMChainID), cmp.Compare(a.EVMBlock, b.EVMBlock))
	})
	return out, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// targetOfName is the target whose Name is n.
func targetOfName(n string) (Target, bool) {
	var t Target
	if _, err := fmt.Sscanf(n, "task-%d", &t.TaskID); err != nil {
		t = Target{Gas: true}
		if _, err := fmt.Sscanf(n, "evm-%d-%d", &t.EVMChainID, &t.EVMBlock); err != nil {
			return Target{}, false
		}
	}
	return t, t.Name() == n
}

// Create writes a new entry for p.Target; an entry already there is
// ErrRevealExists and is left as it is.
func (s *SaltStore) Create(p PendingReveal) error { return s.write(p, true) }

// Update replaces the entry of p.Target with p, atomically.
func (s *SaltStore) Update(p PendingReveal) error { return s.write(p, false) }

// Load reads the entry of target: ErrNoPendingReveal when there is none, a
// *RevealFileError (ErrBadRevealFile) when the file is unreadable, too open
// or does not hold a well-formed entry of this chain and target.
func (s *SaltStore) Load(t Target) (PendingReveal, error) {
	path := s.Path(t)
	st, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return PendingReveal{}, fmt.Errorf("%w for %s in %s", ErrNoPendingReveal, t, s.dir)
	}
	if err != nil {
		return PendingReveal{}, &RevealFileError{Path: path, Err: err}
	}
	if !st.Mode().IsRegular() {
		return PendingReveal{}, &RevealFileError{Path: path, Err: errors.New("not a regular file")}
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return PendingReveal{}, &RevealFileError{Path: path, Err: fmt.Errorf("perms %04o are too open, want 0600", perm)}
	}
	bz, err := os.ReadFile(path)
	if err != nil {
		return PendingReveal{}, &RevealFileError{Path: path, Err: err}
	}
	p, err := decodeReveal(bz, s.chainID, t)
	if err != nil {
		return PendingReveal{}, &RevealFileError{Path: path, Err: err}
	}
	return p, nil
}

// Remove deletes the entry of target (ErrNoPendingReveal when there is none).
func (s *SaltStore) Remove(t Target) error {
	err := os.Remove(s.Path(t))
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%w for %s in %s", ErrNoPendingReveal, t, s.dir)
	}
	if err != nil {
		return err
	}
	return syncDir(s.dir)
}

// write stores p: into a temporary file that is synced, then renamed over
// the entry (or, for a new one, linked to its name, which fails if it
// exists), then the directory is synced.
func (s *SaltStore) write(p PendingReveal, create bool) error {
	bz, err := encodeReveal(p, s.chainID)
	if err != nil {
		return err
	}
	if err := s.mkdir(); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(s.dir, ".tmp-"+p.Target.Name()+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := writeSynced(tmp, bz); err != nil {
		return err
	}
	path := s.Path(p.Target)
	if create {
		err = createFrom(tmp.Name(), path)
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("%w for %s: %s", ErrRevealExists, p.Target, path)
		}
	} else {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return err
	}
	return syncDir(s.dir)
}

// createFrom gives the file tmp the name path unless path exists
// (os.ErrExist): a hard link, atomic; on a file system without hard links,
// a check and a rename.
func createFrom(tmp, path string) error {
	err := os.Link(tmp, path)
	if err == nil || errors.Is(err, os.ErrExist) {
		return err
	}
	if _, serr := os.Lstat(path); serr == nil {
		return os.ErrExist
	}
	return os.Rename(tmp, path)
}

// mkdir makes <home>/reveals/<chain id>/<sender> with mode 0700 (all three
// levels).
func (s *SaltStore) mkdir() error {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return err
	}
	for _, d := range []string{filepath.Dir(filepath.Dir(s.dir)), filepath.Dir(s.dir), s.dir} {
		if err := os.Chmod(d, 0o700); err != nil {
			return err
		}
	}
	return nil
}

func writeSynced(f *os.File, bz []byte) error {
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
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

// syncDir makes a rename, link or removal in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

func encodeReveal(p PendingReveal, chainID string) ([]byte, error) {
	if p.Payload == nil {
		return nil, errors.New("client: pending reveal without a payload")
	}
	t, err := TargetOf(p.Payload)
	if err != nil {
		return nil, err
	}
	if t != p.Target {
		return nil, fmt.Errorf("client: pending reveal for %s holds a payload for %s", p.Target, t)
	}
	payload, err := p.Payload.Marshal()
	if err != nil {
		return nil, fmt.Errorf("client: payload: %w", err)
	}
	f := revealFile{ChainID: chainID, Target: p.Target.Name(), Sender: hex.EncodeToString(p.Sender), UID: p.UID,
		Payload: payload, Salt: hex.EncodeToString(p.Salt[:]), CommitTx: p.CommitTx, CommitHeight: p.CommitHeight,
		SubmissionID: p.SubmissionID}
	bz, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(bz, '\n'), nil
}

// decodeReveal reads a file strictly and checks that it is an entry of
// chainID for target whose payload is canonical.
func decodeReveal(bz []byte, chainID string, t Target) (PendingReveal, error) {
	var f revealFile
	dec := json.NewDecoder(bytes.NewReader(bz))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return PendingReveal{}, fmt.Errorf("not a pending reveal: %v", err)
	}
	if dec.More() {
		return PendingReveal{}, errors.New("trailing data after the JSON object")
	}
	if f.ChainID != chainID {
		return PendingReveal{}, fmt.Errorf("chain_id %q, want %q", f.ChainID, chainID)
	}
	if f.Target != t.Name() {
		return PendingReveal{}, fmt.Errorf("target %q, want %q", f.Target, t.Name())
	}
	payload := &subnetv1.MsgSubmit{}
	if err := payload.Unmarshal(f.Payload); err != nil {
		return PendingReveal{}, fmt.Errorf("payload: %v", err)
	}
	if again, err := payload.Marshal(); err != nil || !bytes.Equal(again, f.Payload) {
		return PendingReveal{}, errors.New("payload: not the canonical encoding of a MsgSubmit")
	}
	if pt, err := TargetOf(payload); err != nil || pt != t {
		return PendingReveal{}, fmt.Errorf("payload: not a payload for %s", t)
	}
	p := PendingReveal{Target: t, UID: f.UID, Payload: payload, CommitTx: f.CommitTx, CommitHeight: f.CommitHeight,
		SubmissionID: f.SubmissionID}
	salt, err := hex.DecodeString(f.Salt)
	if err != nil || len(salt) != len(p.Salt) {
		return PendingReveal{}, fmt.Errorf("salt: want %d bytes of hex", len(p.Salt))
	}
	copy(p.Salt[:], salt)
	sender, err := hex.DecodeString(f.Sender)
	if err != nil || len(sender) != ed25519.PublicKeySize {
		return PendingReveal{}, fmt.Errorf("sender: want %d bytes of hex", ed25519.PublicKeySize)
	}
	p.Sender = sender
	if f.CommitHeight < 0 {
		return PendingReveal{}, fmt.Errorf("commit_height %d is negative", f.CommitHeight)
	}
	return p, nil
}
