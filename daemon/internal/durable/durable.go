package durable

import (
	"fmt"
	"os"
	"path/filepath"
)

// Error is a failed filesystem step, naming the step and the file.
type Error struct {
	Op   string
	Path string
	Err  error
}

func (e *Error) Error() string { return fmt.Sprintf("%s %s: %v", e.Op, e.Path, e.Err) }

func (e *Error) Unwrap() error { return e.Err }

// WriteFile writes b to path so that a reader or a crash sees either the old
// state or the whole new file: a temporary file in path's directory, written
// and fsynced, renamed over path, then the directory fsynced so the rename
// itself is durable. The file gets mode perm.
func WriteFile(path string, b []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return &Error{Op: "create temporary file in", Path: dir, Err: err}
	}
	tmp := f.Name()
	done := false
	defer func() {
		if !done {
			_ = f.Close()
			_ = os.Remove(tmp)
		}
	}()
	if err := f.Chmod(perm); err != nil {
		return &Error{Op: "chmod", Path: tmp, Err: err}
	}
	if _, err := f.Write(b); err != nil {
		return &Error{Op: "write", Path: tmp, Err: err}
	}
	if err := f.Sync(); err != nil {
		return &Error{Op: "fsync", Path: tmp, Err: err}
	}
	if err := f.Close(); err != nil {
		return &Error{Op: "close", Path: tmp, Err: err}
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		done = true
		return &Error{Op: "rename to", Path: path, Err: err}
	}
	done = true
	return SyncDir(dir)
}

// SyncDir fsyncs a directory so that a rename, creation or removal inside it
// survives a crash.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return &Error{Op: "open", Path: dir, Err: err}
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return &Error{Op: "fsync", Path: dir, Err: err}
	}
	return nil
}
