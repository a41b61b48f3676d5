package store

import (
	"fmt"
	"math"

	"github.com/dgraph-io/badger/v4"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Persist writes the overlays (in order: a later one's writes replace an
// earlier one's) and meta in ONE badger transaction, committed with the
// database's sync setting at version meta.Height (the store is badger's
// managed mode: each height is a version, so the state as of any kept
// height can be read). Either everything of the block is stored or
// nothing is.
func Persist(db *badger.DB, overlays []*Overlay, meta *subnetv1.Meta) error {
	txn, err := persistTxn(db, overlays, meta)
	if err != nil {
		return err
	}
	defer txn.Discard()
	return txn.CommitAt(uint64(meta.Height), nil)
}

// PersistAsync is Persist handing the transaction to badger's writer
// without waiting: landed is called (on a goroutine of badger's) once the
// writes are in badger and readable at meta.Height, or with the error that
// stopped them; an error building the transaction is returned and landed
// is not called. Until landed, a reader at meta.Height may see part of the
// block: read the overlays over the version before instead (Layer).
func PersistAsync(db *badger.DB, overlays []*Overlay, meta *subnetv1.Meta, landed func(error)) error {
	txn, err := persistTxn(db, overlays, meta)
	if err != nil {
		return err
	}
	return txn.CommitAt(uint64(meta.Height), landed)
}

// persistTxn builds the one badger transaction of a block.
func persistTxn(db *badger.DB, overlays []*Overlay, meta *subnetv1.Meta) (*badger.Txn, error) {
	if meta.Height < 1 {
		return nil, fmt.Errorf("persist: height %d is no version", meta.Height)
	}
	txn := db.NewTransactionAt(uint64(meta.Height-1), true)
	for _, o := range overlays {
		if err := write(txn, o); err != nil {
			txn.Discard()
			return nil, err
		}
	}
	bz, err := meta.Marshal()
	if err == nil {
		err = txn.Set(KeyMeta, bz)
	}
	if err != nil {
		txn.Discard()
		return nil, err
	}
	return txn, nil
}

// PersistMeta writes only the meta record, at version meta.Height: the end
// of a state-sync restore, whose entries a StreamWriter wrote at that
// version.
func PersistMeta(db *badger.DB, meta *subnetv1.Meta) error {
	return Persist(db, nil, meta)
}

// Latest is the read version of the newest committed state.
const Latest = math.MaxUint64

func write(txn *badger.Txn, o *Overlay) error {
	var err error
	o.Entries(func(k, val []byte, del bool) {
		if err != nil {
			return
		}
		if del {
			err = txn.Delete(k)
		} else {
			err = txn.Set(k, val)
		}
		if err != nil {
			err = fmt.Errorf("write %x: %w", k, err)
		}
	})
	return err
}
