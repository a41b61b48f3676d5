package signrec

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func entry(sub uint64, m string) Entry {
	return Entry{Submission: sub, Measurement: []byte(m), Height: int64(100 + sub), Time: time.Unix(1_700_000_000+int64(sub), 0)}
}

func open(t *testing.T, path string) *Record {
	t.Helper()
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func conflict(t *testing.T, err error, sub uint64) *ConflictError {
	t.Helper()
	var ce *ConflictError
	if !errors.As(err, &ce) || ce.Submission != sub {
		t.Fatalf("err = %v, want a conflict on submission %d", err, sub)
	}
	return ce
}

func TestSignConflictAndResend(t *testing.T) {
	path := filepath.Join(t.TempDir(), "signed.jsonl")
	r := open(t, path)
	defer r.Close()
	if err := r.Sign(entry(1, "report A")); err != nil {
		t.Fatal(err)
	}
	size := fileSize(t, path)
	if err := r.Sign(entry(1, "report A")); err != nil {
		t.Fatalf("equal resend: %v", err)
	}
	ce := conflict(t, r.Sign(entry(1, "report B")), 1)
	if string(ce.Signed.Measurement) != "report A" || string(ce.Wanted) != "report B" || ce.Signed.Height != 101 {
		t.Fatalf("%+v", ce)
	}
	if fileSize(t, path) != size {
		t.Fatal("a resend or a refusal wrote to the file")
	}
	e, ok := r.Lookup(1)
	if !ok || string(e.Measurement) != "report A" || !e.Time.Equal(time.Unix(1_700_000_001, 0)) {
		t.Fatalf("Lookup: %+v %v", e, ok)
	}
	if _, ok := r.Lookup(2); ok {
		t.Fatal("Lookup of an unsigned submission")
	}
	var ee *EntryError
	if err := r.Sign(Entry{Submission: 3}); !errors.As(err, &ee) {
		t.Fatalf("empty measurement: %v", err)
	}
}

func TestReopenKeepsEntries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "signed.jsonl")
	r := open(t, path)
	for i := range uint64(5) {
		if err := r.Sign(entry(i, fmt.Sprint("m", i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := r.Sign(entry(9, "x")); !errors.Is(err, ErrClosed) {
		t.Fatalf("Sign after Close: %v", err)
	}
	r = open(t, path)
	defer r.Close()
	if r.Len() != 5 {
		t.Fatalf("Len = %d", r.Len())
	}
	conflict(t, r.Sign(entry(3, "other")), 3)
	if err := r.Sign(entry(3, "m3")); err != nil {
		t.Fatal(err)
	}
}

func TestLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "signed.jsonl")
	r := open(t, path)
	_, err := Open(path)
	var le *LockedError
	if !errors.Is(err, ErrLocked) || !errors.As(err, &le) || !strings.Contains(err.Error(), path) {
		t.Fatalf("second Open: %v", err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	r2 := open(t, path) // free again once closed
	r2.Close()
}

func TestSignAllAtomic(t *testing.T) {
	path := filepath.Join(t.TempDir(), "signed.jsonl")
	r := open(t, path)
	defer r.Close()
	if err := r.Sign(entry(2, "two")); err != nil {
		t.Fatal(err)
	}
	size := fileSize(t, path)
	// One entry conflicts with the record: nothing of the batch is written.
	conflict(t, r.SignAll([]Entry{entry(1, "one"), entry(2, "TWO"), entry(3, "three")}), 2)
	// Two entries of the batch conflict with each other.
	conflict(t, r.SignAll([]Entry{entry(4, "four"), entry(4, "FOUR")}), 4)
	if r.Len() != 1 || fileSize(t, path) != size {
		t.Fatalf("a refused batch changed the record: Len %d", r.Len())
	}
	// A batch with resends and a repeat signs the new ones once.
	if err := r.SignAll([]Entry{entry(1, "one"), entry(2, "two"), entry(3, "three"), entry(3, "three")}); err != nil {
		t.Fatal(err)
	}
	if r.Len() != 3 || lines(t, path) != 3 {
		t.Fatalf("Len %d, %d lines", r.Len(), lines(t, path))
	}
	if err := r.SignAll(nil); err != nil {
		t.Fatal(err)
	}
}

func TestTornLastLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "signed.jsonl")
	r := open(t, path)
	if err := r.SignAll([]Entry{entry(1, "one"), entry(2, "two")}); err != nil {
		t.Fatal(err)
	}
	r.Close()
	good := fileSize(t, path)
	appendRaw(t, path, `{"submission":3,"measurement":"dGh`)
	r = open(t, path)
	if r.Len() != 2 || fileSize(t, path) != good {
		t.Fatalf("torn line: Len %d, size %d, want 2, %d", r.Len(), fileSize(t, path), good)
	}
	// The torn entry was never acknowledged: its submission is free.
	if err := r.Sign(entry(3, "three")); err != nil {
		t.Fatal(err)
	}
	r.Close()
	r = open(t, path)
	defer r.Close()
	if r.Len() != 3 {
		t.Fatalf("Len %d", r.Len())
	}
}

// An append the file system extended but never wrote leaves NUL bytes; they
// and what follows them are an unacknowledged tail, not corruption.
func TestUnsyncedAppendZeros(t *testing.T) {
	path := filepath.Join(t.TempDir(), "signed.jsonl")
	r := open(t, path)
	if err := r.Sign(entry(1, "one")); err != nil {
		t.Fatal(err)
	}
	r.Close()
	good := fileSize(t, path)
	appendRaw(t, path, string(encodeLine(entry(2, "two")))[:10]+"\x00\x00\x00\n"+string(encodeLine(entry(3, "three"))))
	r = open(t, path)
	defer r.Close()
	if r.Len() != 1 || fileSize(t, path) != good {
		t.Fatalf("Len %d, size %d, want 1, %d", r.Len(), fileSize(t, path), good)
	}
}

func TestCorruptLine(t *testing.T) {
	for name, bad := range map[string]string{
		"not json":      "garbage\n",
		"unknown field": `{"submission":1,"measurement":"eA==","height":1,"time":"2026-01-01T00:00:00Z","x":1}` + "\n",
		"empty":         `{"submission":1,"measurement":"","height":1,"time":"2026-01-01T00:00:00Z"}` + "\n",
		"two values":    `{"submission":1,"measurement":"eA==","height":1,"time":"2026-01-01T00:00:00Z"} {}` + "\n",
		"conflicting":   `{"submission":1,"measurement":"eQ==","height":1,"time":"2026-01-01T00:00:00Z"}` + "\n",
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "signed.jsonl")
			r := open(t, path)
			if err := r.SignAll([]Entry{entry(1, "x"), entry(2, "y")}); err != nil {
				t.Fatal(err)
			}
			r.Close()
			appendRaw(t, path, bad)
			appendRaw(t, path, string(encodeLine(entry(4, "z"))))
			_, err := Open(path)
			var ce *CorruptError
			if !errors.As(err, &ce) || ce.Line != 3 || !strings.Contains(err.Error(), "line 3") {
				t.Fatalf("Open: %v", err)
			}
			// A failed Open releases the lock.
			if _, err := Open(path); errors.Is(err, ErrLocked) {
				t.Fatal("a failed Open kept the lock")
			}
		})
	}
}

// TestCrashAtEveryByte cuts the file's last line at every byte, as a crash
// in the middle of its append would, and reopens: every fully written line
// still refuses a conflicting measurement, and only a line written whole
// (newline included) counts as signed.
func TestCrashAtEveryByte(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "signed.jsonl")
	r := open(t, path)
	if err := r.SignAll([]Entry{entry(10, "ten"), entry(11, "eleven")}); err != nil {
		t.Fatal(err)
	}
	if err := r.Sign(entry(12, "twelve, the last line")); err != nil {
		t.Fatal(err)
	}
	r.Close()
	full, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	last := bytes.LastIndexByte(full[:len(full)-1], '\n') + 1
	for cut := last; cut <= len(full); cut++ {
		if err := os.WriteFile(path, full[:cut], 0o600); err != nil {
			t.Fatal(err)
		}
		r, err := Open(path)
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		for _, sub := range []uint64{10, 11} {
			conflict(t, r.Sign(entry(sub, "a different measurement")), sub)
		}
		_, has12 := r.Lookup(12)
		if whole := cut == len(full); has12 != whole {
			t.Fatalf("cut at %d of %d: submission 12 signed = %v", cut, len(full), has12)
		}
		if has12 {
			conflict(t, r.Sign(entry(12, "a different measurement")), 12)
		} else if size := fileSize(t, path); size != int64(last) {
			t.Fatalf("cut at %d: torn tail not truncated (size %d, want %d)", cut, size, last)
		}
		r.Close()
	}
}

func TestPrune(t *testing.T) {
	path := filepath.Join(t.TempDir(), "signed.jsonl")
	r := open(t, path)
	for i := range uint64(10) {
		if err := r.Sign(entry(i, fmt.Sprint("m", i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Prune(6); err != nil {
		t.Fatal(err)
	}
	if r.Len() != 4 || lines(t, path) != 4 {
		t.Fatalf("after Prune: Len %d, %d lines", r.Len(), lines(t, path))
	}
	if _, ok := r.Lookup(5); ok {
		t.Fatal("pruned submission still there")
	}
	conflict(t, r.Sign(entry(7, "other")), 7)
	// Appends after a Prune go to the new file.
	if err := r.Sign(entry(20, "m20")); err != nil {
		t.Fatal(err)
	}
	if err := r.Prune(0); err != nil {
		t.Fatal(err)
	}
	// The lock survives the file's replacement.
	if _, err := Open(path); !errors.Is(err, ErrLocked) {
		t.Fatalf("Open after Prune: %v", err)
	}
	r.Close()
	r = open(t, path)
	defer r.Close()
	if r.Len() != 5 {
		t.Fatalf("reopened after Prune: Len %d", r.Len())
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".tmp-*"))
	if len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

// A Prune that crashed before its rename leaves only a temporary file,
// which Open removes; the record is the old one.
func TestOpenRemovesPruneLeftovers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "signed.jsonl")
	r := open(t, path)
	if err := r.Sign(entry(1, "one")); err != nil {
		t.Fatal(err)
	}
	r.Close()
	stale := filepath.Join(filepath.Dir(path), ".tmp-signed.jsonl-123")
	if err := os.WriteFile(stale, []byte("partial"), 0o600); err != nil {
		t.Fatal(err)
	}
	r = open(t, path)
	defer r.Close()
	if _, err := os.Stat(stale); !os.IsNotExist(err) || r.Len() != 1 {
		t.Fatalf("leftover: %v, Len %d", err, r.Len())
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

func lines(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Count(b, []byte{'\n'})
}

func appendRaw(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}
