// Package snapshot owns the state-sync snapshots of the app: format 1 (the
// committed state without the meta record, as a sorted stream of
// length-prefixed entries cut into chunks at entry boundaries), its
// canonical metadata (header and the SHA-256 of every chunk), the snapshot
// directory (Create, List, Load, Prune) and the Restorer that verifies and
// imports a snapshot chunk by chunk and accepts it only if the restored
// state's lanes hash to the trusted app hash. The ABCI answers of every
// error are one table (errors.go); abci.go turns them into CometBFT's
// responses. docs/statesync.md describes the byte layout and the wiring.
//
// Taking a snapshot after Commit, from a read transaction at that version:
//
//	txn := db.NewTransaction(false)
//	it := snapshot.NewBadgerIterator(txn)
//	info, err := snapshot.Create(dir, it, snapshot.Header{ChainID: id, Height: h, Time: t, AppHash: appHash}, snapshot.Options{})
//	it.Close()
//	txn.Discard()
//	_, err = snapshot.Prune(dir, keepRecent)
//
// Restoring (OfferSnapshot, then ApplySnapshotChunk for chunks 0, 1, …):
//
//	meta, err := snapshot.Offer(snapshot.DescriptorOf(req.Snapshot), req.Snapshot.Height, req.AppHash)
//	if err != nil {
//		return snapshot.OfferResponse(err), nil
//	}
//	sink, err := snapshot.NewBadgerSink(db, 1) // empties db
//	r, err := snapshot.NewRestorer(meta, req.AppHash, sink)
//	…
//	res, err := r.Apply(req.Index, req.Chunk) // err says why, res what to answer
//	if res.Done {
//		err = sink.Flush() // then write the meta record with r.Lanes()
//	}
//	return res.Response(req.Sender), nil
//
// Nothing here runs in block execution: Create reads a read transaction in
// the background, the Restorer runs before the node has a state.
package snapshot
