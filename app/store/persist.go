package store

import (
	"fmt"

	"github.com/dgraph-io/badger/v4"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Persist writes the overlays (in order: a later one's writes replace an
// earlier one's) and meta in ONE badger transaction, committed with the
// database's sync setting. Either everything of the block is stored or
// nothing is.
func Persist(db *badger.DB, overlays []*Overlay, meta *subnetv1.Meta) error {
	txn := db.NewTransaction(true)
	defer txn.Discard()
	for _, o := range overlays {
		if err := write(txn, o); err != nil {
			return err
		}
	}
	bz, err := meta.Marshal()
	if err != nil {
		return err
	}
	if err := txn.Set(KeyMeta, bz); err != nil {
		return err
	}
	return txn.Commit()
}

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
