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

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// DumpBadger lists every entry of the badger directory dir, sorted by key, without writing to
// dir. A directory left unclean by a killed process cannot be opened read-only; it is then
// copied to a temporary directory and opened there, so the original is never touched.
func DumpBadger(dir string) ([]Entry, error) {
	return DumpBadgerAt(dir, math.MaxUint64)
}

// DumpBadgerAt is DumpBadger of the state as of version (the app's store is badger's
// managed mode, one version per height): the caller makes sure the version is one the
// store keeps whole (newer than its discard point, app.Config.KeepVersions).
func DumpBadgerAt(dir string, version uint64) ([]Entry, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, err
	}
	es, err := dumpBadger(dir, true, version)
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
	return dumpBadger(tmp, false, version)
}

// dumpBadger opens dir (read-only or not) and lists all entries in key order.
func dumpBadger(dir string, readOnly bool, version uint64) (es []Entry, err error) {
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
	}(db.NewTransactionAt(version, false))
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

// StoredHeights reads the meta record of the app store in dir: the first height whose
// version it holds and the newest committed height.
func StoredHeights(dir string) (first, latest int64, err error) {
	es, err := DumpBadgerMeta(dir)
	if err != nil {
		return 0, 0, err
	}
	return es.FirstHeight, es.Height, nil
}

// DumpBadgerMeta reads only the meta record (key 0x00) of the newest version in dir.
func DumpBadgerMeta(dir string) (*subnetv1.Meta, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, err
	}
	db, err := badger.OpenManaged(badger.DefaultOptions(dir).WithReadOnly(true).WithLogger(nil))
	if err != nil {
		if isLockError(err) {
			return nil, fmt.Errorf("%s: %w", dir, ErrNodeRunning)
		}
		return nil, err
	}
	defer db.Close()
	txn := db.NewTransactionAt(math.MaxUint64, false)
	defer txn.Discard()
	item, err := txn.Get([]byte{0x00})
	if err != nil {
		return nil, fmt.Errorf("%s: no meta record: %w", dir, err)
	}
	m := &subnetv1.Meta{}
	if err := item.Value(func(v []byte) error { return m.Unmarshal(v) }); err != nil {
		return nil, err
	}
	return m, nil
}
