// Package store is the state layer of the app: the key layout (one table,
// which statedump and the queries read too), typed accessors over a
// copy-on-write overlay, the committed badger view beneath it, the
// incremental multiset hash (LtHash) that makes the app hash, and the one
// badger transaction that persists a block.
//
//	ov := store.NewOverlay(store.Snapshot{Txn: db.NewTransaction(false)})
//	st := store.State{O: ov}
//	c := st.Counters()
//	c.Miners++
//	st.Save(store.KeyCounters, c)
//	next := store.ApplyOverlay(prev, ov, base) // lanes of the new state
//	appHash := next.Sum()
//	err := store.Persist(db, []*store.Overlay{ov}, meta)
//
// Nothing here knows ABCI or the scoring rules.
package store
