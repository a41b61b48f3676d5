package replay

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"

	"github.com/dgraph-io/badger/v4"
)

// DumpBadger lists every entry of the badger directory dir, sorted by key, without writing to
// dir. A directory left unclean by a killed process cannot be opened read-only; it is then
// copied to a temporary directory and opened there, so the original is never touched.
func DumpBadger(dir string) ([]Entry, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, err
	}
	es, err := dumpBadger(dir, true)
	if err == nil {
		return es, nil
	}
	if isLockError(err) {
		return nil, fmt.Errorf("%s: %w", dir, ErrNodeRunning)
	}
	tmp, terr := os.MkdirTemp("", "validatord-badger-copy-")
	if terr != nil {
		return nil, errors.Join(err, terr)
	}
	defer os.RemoveAll(tmp)
	if cerr := copyDir(dir, tmp); cerr != nil {
		return nil, errors.Join(err, cerr)
	}
	return dumpBadger(tmp, false)
}

// dumpBadger opens dir (read-only or not) and lists all entries in key order.
func dumpBadger(dir string, readOnly bool) (es []Entry, err error) {
	db, err := badger.OpenManaged(badger.DefaultOptions(dir).WithReadOnly(readOnly).WithLogger(nil))
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, db.Close()) }()
	err = func(txn *badger.Txn) error {
		defer txn.Discard()
		it := txn.NewIterator(badger.DefaultIteratorOptions)
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			item := it.Item()
			v, err := item.ValueCopy(nil)
			if err != nil {
				return err
			}
			es = append(es, Entry{Key: item.KeyCopy(nil), Value: append([]byte{}, v...)})
		}
		return nil
	}(db.NewTransactionAt(math.MaxUint64, false)) // the app's store is managed: the newest version
	return es, err
}

// copyDir copies the regular files of src (recursively) into dst, skipping badger's LOCK.
func copyDir(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o700)
		}
		if d.Name() == "LOCK" || !d.Type().IsRegular() {
			return nil
		}
		return copyFile(p, target)
	})
}

// copyFile copies src to dst; between two files io.Copy uses the kernel's copy_file_range,
// which keeps badger's large sparse files cheap.
func copyFile(src, dst string) (err error) {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, out.Close()) }()
	_, err = io.Copy(out, in)
	return err
}
