package snapshot

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"

	"github.com/dgraph-io/badger/v4"

	"github.com/scoringsubnet/validatord/app/store"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// The operator's side (`validatord snapshot export|restore`): a snapshot of
// a stopped node's app store at a kept height, and a restore of one into an
// empty app store, as state sync would do it.

// Errors of ExportStore and RestoreStore.
var (
	ErrStoreLocked   = errors.New("the app store is in use by another process: stop the node first")
	ErrNoState       = errors.New("the app store holds no committed state")
	ErrVersionGone   = errors.New("height not among the state versions the store keeps")
	ErrStoreNotEmpty = errors.New("the app store is not empty: restore only into a home without app state")
)

// ExportOptions tune ExportStore.
type ExportOptions struct {
	// Height is the height whose state to write; 0 is the newest.
	Height uint64
	// KeepVersions is the node's keep_versions (app.toml): heights older
	// than the newest − KeepVersions + 1 are refused, as queries refuse them
	// (badger may already have compacted them away). 0 keeps every version.
	KeepVersions int64
	// ChunkSize as in Options.
	ChunkSize int
}

// ExportStore writes the snapshot of the app store dbDir (badger, managed
// mode: each height a version) as of opts.Height under outDir, as the node
// would have written it at that height, and checks its app hash against the
// one committed at that height. The store is opened read-only (or, when a
// crash left it unclean, read-write to replay its log); it must not be open
// in a running node (ErrStoreLocked).
func ExportStore(dbDir, outDir string, opts ExportOptions) (Info, error) {
	if _, err := os.Stat(dbDir); err != nil {
		return Info{}, fmt.Errorf("app store %s: %w", dbDir, err)
	}
	db, err := openStore(dbDir, true)
	if err != nil && !errors.Is(err, ErrStoreLocked) {
		db, err = openStore(dbDir, false) // unclean: let badger replay its log
	}
	if err != nil {
		return Info{}, err
	}
	defer db.Close()

	latest, ok, err := metaAt(db, store.Latest)
	if err != nil {
		return Info{}, err
	}
	if !ok {
		return Info{}, fmt.Errorf("%s: %w", dbDir, ErrNoState)
	}
	h := opts.Height
	if h == 0 {
		h = uint64(latest.Height)
	}
	oldest := max(latest.FirstHeight, 1)
	if opts.KeepVersions > 0 {
		oldest = max(oldest, latest.Height-opts.KeepVersions+1)
	}
	if h > uint64(latest.Height) || h < uint64(oldest) {
		return Info{}, fmt.Errorf("%s: %w: height %d, the store keeps heights %d to %d (keep_versions %d); "+
			"an older state: `validatord export --height %d` replays the block store", dbDir, ErrVersionGone, h, oldest, latest.Height, opts.KeepVersions, h)
	}
	txn := db.NewTransactionAt(h, false)
	defer txn.Discard()
	meta, ok, err := metaAt(db, h)
	if err != nil {
		return Info{}, err
	}
	if !ok || meta.Height != int64(h) {
		return Info{}, fmt.Errorf("%s: %w: height %d has no stored version (the store holds heights from %d)", dbDir, ErrVersionGone, h, oldest)
	}
	chainID, err := get(txn, store.KeyChainID)
	if err != nil {
		return Info{}, err
	}
	it := NewBadgerIterator(txn)
	defer it.Close()
	hdr := Header{ChainID: string(chainID), Height: h, Time: meta.Time, AppHash: meta.AppHash}
	return Create(outDir, it, hdr, Options{ChunkSize: opts.ChunkSize, VerifyAppHash: true})
}

// RestoreStore restores the snapshot of height under fromDir into the app
// store dbDir, which must hold nothing (ErrStoreNotEmpty): every chunk is
// verified, and the restored state must hash to trustedAppHash. The entries
// are written at version height and the meta record after them with
// FirstHeight = height, as the app's state-sync restore does; the store
// then reads like a node's that committed that height.
func RestoreStore(dbDir, fromDir string, height uint64, trustedAppHash []byte) (_ *subnetv1.Meta, err error) {
	if height == 0 {
		return nil, fmt.Errorf("snapshot: restore: height 0")
	}
	// Check the snapshot before the store is touched.
	if _, err := LoadInfo(fromDir, height); err != nil {
		return nil, err
	}
	db, err := openStore(dbDir, false)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, db.Close()) }()
	if err := checkEmpty(db, dbDir); err != nil {
		return nil, err
	}
	sink, err := NewBadgerSink(db, height)
	if err != nil {
		return nil, err
	}
	r, err := RestoreDir(fromDir, height, trustedAppHash, sink)
	if err != nil {
		sink.Cancel()
		return nil, err
	}
	if err := sink.Flush(); err != nil {
		return nil, err
	}
	m, lanes := r.Metadata(), r.Lanes()
	meta := &subnetv1.Meta{Height: int64(m.Height), Time: m.Time, AppHash: m.AppHash, Lanes: lanes.Encode(), FirstHeight: int64(m.Height)}
	if err := store.PersistMeta(db, meta); err != nil {
		return nil, err
	}
	return meta, nil
}

// openStore opens a managed badger, naming a lock held by a running node.
func openStore(dir string, readOnly bool) (*badger.DB, error) {
	db, err := badger.OpenManaged(badger.DefaultOptions(dir).WithReadOnly(readOnly).WithSyncWrites(!readOnly).WithLogger(nil))
	if err != nil {
		if isLockError(err) {
			return nil, fmt.Errorf("%s: %w", dir, ErrStoreLocked)
		}
		return nil, fmt.Errorf("open app store %s: %w", dir, err)
	}
	return db, nil
}

// isLockError: badger formats the flock refusal into its message.
func isLockError(err error) bool {
	return errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EAGAIN) ||
		strings.Contains(err.Error(), "Cannot acquire directory lock")
}

// metaAt reads the meta record as of version v.
func metaAt(db *badger.DB, v uint64) (*subnetv1.Meta, bool, error) {
	txn := db.NewTransactionAt(v, false)
	defer txn.Discard()
	bz, err := get(txn, store.KeyMeta)
	if err != nil || bz == nil {
		return nil, false, err
	}
	m := &subnetv1.Meta{}
	if err := m.Unmarshal(bz); err != nil {
		return nil, false, fmt.Errorf("meta record: %w", err)
	}
	return m, true, nil
}

// get is the value of key, nil when absent.
func get(txn *badger.Txn, key []byte) ([]byte, error) {
	item, err := txn.Get(key)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return item.ValueCopy(nil)
}

// checkEmpty refuses a store that holds any entry, naming its height.
func checkEmpty(db *badger.DB, dir string) error {
	if m, ok, err := metaAt(db, store.Latest); err != nil {
		return err
	} else if ok {
		return fmt.Errorf("%s: %w (it holds the state of height %d)", dir, ErrStoreNotEmpty, m.Height)
	}
	txn := db.NewTransactionAt(store.Latest, false)
	defer txn.Discard()
	it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: false})
	defer it.Close()
	it.Rewind()
	if it.Valid() {
		return fmt.Errorf("%s: %w (it holds entries but no committed height)", dir, ErrStoreNotEmpty)
	}
	return nil
}
