package signrec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/scoringsubnet/validatord/daemon/internal/durable"
)

// Entry is one signed measurement.
type Entry struct {
	// Submission is the submission the measurement is about.
	Submission uint64 `json:"submission"`
	// Measurement is the canonical bytes of what was signed (e.g. the
	// marshalled report); stored base64 in the file.
	Measurement []byte `json:"measurement"`
	// Height is the chain height when it was signed.
	Height int64 `json:"height"`
	// Time is the wall-clock time when it was signed.
	Time time.Time `json:"time"`
}

// Record is an open signing record. It is safe for concurrent use.
type Record struct {
	mu      sync.Mutex
	path    string
	f       *os.File // data file, opened for appending
	lock    *os.File // holds the flock
	entries map[uint64]Entry
	broken  error // set after a failed write: no more signing
	closed  bool
}

// lockPath is the sibling file that carries the flock.
func lockPath(path string) string { return path + ".lock" }

// Open opens (creating if needed) the record at path and locks it. A torn
// last line is dropped and truncated away; any other corrupt line is a
// *CorruptError. If another process holds the record, Open returns a
// *LockedError (errors.Is ErrLocked).
func Open(path string) (*Record, error) {
	lock, err := os.OpenFile(lockPath(path), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, &IOError{Op: "open", Path: lockPath(path), Err: err}
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		lock.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &LockedError{Path: path}
		}
		return nil, &IOError{Op: "lock", Path: lockPath(path), Err: err}
	}
	r, err := openLocked(path)
	if err != nil {
		lock.Close()
		return nil, err
	}
	r.lock = lock
	return r, nil
}

// openLocked reads and repairs the data file; the caller holds the lock.
func openLocked(path string) (*Record, error) {
	// A Prune that crashed before its rename leaves a temporary file; the
	// record itself is still the old, complete one.
	if stale, err := filepath.Glob(filepath.Join(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")); err == nil {
		for _, name := range stale {
			_ = os.Remove(name)
		}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, &IOError{Op: "open", Path: path, Err: err}
	}
	// The file may have just been created: its name must be durable
	// before any entry in it is acknowledged.
	if err := durable.SyncDir(filepath.Dir(path)); err != nil {
		f.Close()
		return nil, &IOError{Op: "create", Path: path, Err: err}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		f.Close()
		return nil, &IOError{Op: "read", Path: path, Err: err}
	}
	entries, good, err := parse(path, data)
	if err != nil {
		f.Close()
		return nil, err
	}
	if good < len(data) {
		// The tail after the last newline is a torn append: never
		// acknowledged, so nothing was signed from it.
		if err := f.Truncate(int64(good)); err != nil {
			f.Close()
			return nil, &IOError{Op: "truncate", Path: path, Err: err}
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return nil, &IOError{Op: "fsync", Path: path, Err: err}
		}
	}
	return &Record{path: path, f: f, entries: entries}, nil
}

// parse reads the complete lines of data. It returns the entries, the
// length of the prefix that holds them (what follows is a torn tail: a last
// line without its newline, or a region of an unsynced append), and a
// *CorruptError for a complete line that does not decode or conflicts with
// an earlier one.
func parse(path string, data []byte) (map[uint64]Entry, int, error) {
	entries := make(map[uint64]Entry)
	off, line := 0, 0
	for {
		nl := bytes.IndexByte(data[off:], '\n')
		if nl < 0 {
			return entries, off, nil
		}
		line++
		raw := data[off : off+nl]
		if bytes.IndexByte(raw, 0) >= 0 {
			// NUL bytes are what a file system leaves in an append that
			// was not yet fsynced when the machine went down; a written
			// line never holds one (JSON escapes control characters).
			// That region and everything after it were never
			// acknowledged, so the record ends before it.
			return entries, off, nil
		}
		off += nl + 1
		e, err := decodeLine(raw)
		if err != nil {
			return nil, 0, &CorruptError{Path: path, Line: line, Err: err}
		}
		if have, ok := entries[e.Submission]; ok && !bytes.Equal(have.Measurement, e.Measurement) {
			return nil, 0, &CorruptError{Path: path, Line: line, Err: fmt.Errorf("second, different measurement for submission %d", e.Submission)}
		} else if ok {
			continue
		}
		entries[e.Submission] = e
	}
}

func decodeLine(raw []byte) (Entry, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var e Entry
	if err := dec.Decode(&e); err != nil {
		return Entry{}, err
	}
	if dec.More() {
		return Entry{}, errors.New("trailing data after the entry")
	}
	if len(e.Measurement) == 0 {
		return Entry{}, errors.New("empty measurement")
	}
	return e, nil
}

// encodeLine is the file form of an entry: one JSON object and a newline.
func encodeLine(e Entry) []byte {
	e.Time = e.Time.UTC()
	b, err := json.Marshal(e)
	if err != nil {
		// An Entry holds only numbers, bytes and a time; a time out of
		// JSON's range is the only way here and is a caller bug.
		panic(fmt.Sprintf("signrec: cannot encode entry: %v", err))
	}
	return append(b, '\n')
}

// Path returns the record's data file.
func (r *Record) Path() string { return r.path }

// Lookup returns what was signed for sub, if anything.
func (r *Record) Lookup(sub uint64) (Entry, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.entries[sub]
	return cloneEntry(e), ok
}

// Len returns the number of submissions in the record.
func (r *Record) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.entries)
}

// Sign records e before the caller signs it. If the submission is absent it
// is appended and fsynced, and Sign returns nil. If it was signed with the
// same bytes, Sign returns nil without writing (resending the same signature
// is safe). If it was signed with other bytes, Sign returns a
// *ConflictError and writes nothing.
func (r *Record) Sign(e Entry) error {
	return r.SignAll([]Entry{e})
}

// SignAll is Sign for a batch with one write and one fsync. Every entry is
// checked first; if any conflicts (with the record or with another entry of
// the batch) nothing is written and the first conflict is returned.
func (r *Record) SignAll(es []Entry) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.usable(); err != nil {
		return err
	}
	var (
		buf   []byte
		added = make(map[uint64]Entry)
	)
	for _, e := range es {
		if len(e.Measurement) == 0 {
			return &EntryError{Submission: e.Submission, Reason: "empty measurement"}
		}
		have, ok := r.entries[e.Submission]
		if !ok {
			have, ok = added[e.Submission]
		}
		if ok {
			if !bytes.Equal(have.Measurement, e.Measurement) {
				return &ConflictError{Submission: e.Submission, Signed: cloneEntry(have), Wanted: bytes.Clone(e.Measurement)}
			}
			continue
		}
		e = cloneEntry(e)
		e.Time = e.Time.UTC()
		added[e.Submission] = e
		buf = append(buf, encodeLine(e)...)
	}
	if len(buf) == 0 {
		return nil
	}
	if _, err := r.f.Write(buf); err != nil {
		r.broken = &IOError{Op: "append to", Path: r.path, Err: err}
		return r.broken
	}
	if err := r.f.Sync(); err != nil {
		r.broken = &IOError{Op: "fsync", Path: r.path, Err: err}
		return r.broken
	}
	for sub, e := range added {
		r.entries[sub] = e
	}
	return nil
}

// Prune drops the submissions below the given id, to keep the file small
// once they can no longer be reported. It writes the remaining entries to a
// temporary file, fsyncs it, renames it over the record and fsyncs the
// directory: a crash leaves either the old or the new file, both complete.
func (r *Record) Prune(below uint64) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.usable(); err != nil {
		return err
	}
	keep := make(map[uint64]Entry, len(r.entries))
	var buf []byte
	for _, sub := range slices.Sorted(maps.Keys(r.entries)) {
		if sub >= below {
			keep[sub] = r.entries[sub]
			buf = append(buf, encodeLine(r.entries[sub])...)
		}
	}
	if len(keep) == len(r.entries) {
		return nil
	}
	if err := durable.WriteFile(r.path, buf, 0o600); err != nil {
		return &IOError{Op: "prune", Path: r.path, Err: err}
	}
	// The new file is the record now (a crash from here keeps it, or at
	// worst brings back the old, larger one); append to it from now on.
	f, err := os.OpenFile(r.path, os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		r.broken = &IOError{Op: "reopen after prune", Path: r.path, Err: err}
		return r.broken
	}
	_ = r.f.Close()
	r.f = f
	r.entries = keep
	return nil
}

// Close releases the record and its lock.
func (r *Record) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	err := r.f.Close()
	if lerr := r.lock.Close(); err == nil {
		err = lerr
	}
	if err != nil {
		return &IOError{Op: "close", Path: r.path, Err: err}
	}
	return nil
}

func (r *Record) usable() error {
	if r.closed {
		return ErrClosed
	}
	return r.broken
}

func cloneEntry(e Entry) Entry {
	e.Measurement = bytes.Clone(e.Measurement)
	return e
}
