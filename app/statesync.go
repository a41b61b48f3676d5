package app

import (
	"context"
	"fmt"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/snapshot"
	"github.com/scoringsubnet/validatord/app/store"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// State sync (docs/statesync.md): snapshots written after Commit in the
// background, served to peers, and restored into an empty store. None of it
// runs in block execution.

// restoring is a state-sync restore in progress.
type restoring struct {
	r    *snapshot.Restorer
	sink *snapshot.BadgerSink
}

// maybeSnapshot starts the snapshot of the height just committed when it
// is a multiple of the interval (snapshot.Writer skips it while the last
// one is still being written). Called by Commit with a.mu held; the writer
// reads its own transaction at that version, so later commits never change
// what it reads.
func (a *App) maybeSnapshot() {
	if a.snapshots.Interval <= 0 || a.snapshots.Dir == "" || a.height%a.snapshots.Interval != 0 || a.chain == nil {
		return
	}
	h := snapshot.Header{ChainID: a.chain.ID, Height: uint64(a.height), Time: a.time, AppHash: append([]byte(nil), a.appHash...)}
	if landed := a.durable.landed(); landed != nil {
		<-landed // pipelined: the writer reads this version, which must be whole
	}
	if !a.snapWriter.Start(a.db.NewTransactionAt(uint64(a.height), false), h) {
		a.logger.Info("snapshot skipped: the previous one is still being written", "height", a.height)
	}
}

// ListSnapshots lists the stored snapshots.
func (a *App) ListSnapshots(context.Context, *abcitypes.RequestListSnapshots) (*abcitypes.ResponseListSnapshots, error) {
	resp := &abcitypes.ResponseListSnapshots{}
	if a.snapshots.Dir == "" {
		return resp, nil
	}
	infos, err := snapshot.List(a.snapshots.Dir)
	if err != nil {
		a.logger.Error("list snapshots", "err", err)
		return resp, nil
	}
	for _, info := range infos {
		resp.Snapshots = append(resp.Snapshots, info.ABCI())
	}
	return resp, nil
}

// LoadSnapshotChunk serves one chunk of a stored snapshot.
func (a *App) LoadSnapshotChunk(_ context.Context, req *abcitypes.RequestLoadSnapshotChunk) (*abcitypes.ResponseLoadSnapshotChunk, error) {
	if a.snapshots.Dir == "" || req.Format != snapshot.FormatV1 {
		return &abcitypes.ResponseLoadSnapshotChunk{}, nil
	}
	chunk, err := snapshot.Load(a.snapshots.Dir, req.Height, req.Chunk)
	if err != nil {
		a.logger.Info("snapshot chunk not served", "height", req.Height, "chunk", req.Chunk, "err", err)
		return &abcitypes.ResponseLoadSnapshotChunk{}, nil
	}
	return &abcitypes.ResponseLoadSnapshotChunk{Chunk: chunk}, nil
}

// OfferSnapshot accepts a snapshot for an empty store: its metadata must
// name the trusted height and app hash CometBFT's light client verified.
func (a *App) OfferSnapshot(_ context.Context, req *abcitypes.RequestOfferSnapshot) (*abcitypes.ResponseOfferSnapshot, error) {
	a.lockAll()
	defer a.unlockAll()
	if a.height > 0 {
		a.logger.Error("snapshot offered to a node that has state; refused", "height", a.height)
		return &abcitypes.ResponseOfferSnapshot{Result: abcitypes.ResponseOfferSnapshot_ABORT}, nil
	}
	if req.Snapshot == nil {
		return &abcitypes.ResponseOfferSnapshot{Result: abcitypes.ResponseOfferSnapshot_REJECT}, nil
	}
	a.abortRestore()
	meta, err := snapshot.Offer(snapshot.DescriptorOf(req.Snapshot), req.Snapshot.Height, req.AppHash)
	if err != nil {
		a.logger.Info("snapshot offer refused", "height", req.Snapshot.Height, "err", err)
		return snapshot.OfferResponse(err), nil
	}
	if err := a.durable.wait(); err != nil {
		return nil, fmt.Errorf("app: the last block's write: %w", err)
	}
	if a.snap != nil {
		a.snap.Discard() // the sink empties the store: no transaction may be open
		a.snap = nil
	}
	a.top = nil
	sink, err := snapshot.NewBadgerSink(a.db, meta.Height)
	if err != nil {
		return nil, fmt.Errorf("app: prepare the restore: %w", err)
	}
	r, err := snapshot.NewRestorer(meta, req.AppHash, sink)
	if err != nil {
		sink.Cancel()
		return snapshot.OfferResponse(err), nil
	}
	a.restore = &restoring{r: r, sink: sink}
	a.logger.Info("restoring snapshot", "height", meta.Height, "chunks", len(meta.Chunks), "bytes", meta.Size)
	return &abcitypes.ResponseOfferSnapshot{Result: abcitypes.ResponseOfferSnapshot_ACCEPT}, nil
}

// ApplySnapshotChunk verifies and imports one chunk; after the last, the
// restored state's app hash must be the trusted one, and the node starts
// from that height.
func (a *App) ApplySnapshotChunk(_ context.Context, req *abcitypes.RequestApplySnapshotChunk) (*abcitypes.ResponseApplySnapshotChunk, error) {
	a.lockAll()
	defer a.unlockAll()
	if a.restore == nil {
		return &abcitypes.ResponseApplySnapshotChunk{Result: abcitypes.ResponseApplySnapshotChunk_ABORT}, nil
	}
	res, err := a.restore.r.Apply(req.Index, req.Chunk)
	if err != nil {
		a.logger.Info("snapshot chunk refused", "index", req.Index, "sender", req.Sender, "err", err)
	}
	if res.Done {
		if err := a.finishRestore(); err != nil {
			return nil, err
		}
	}
	return res.Response(req.Sender), nil
}

// finishRestore flushes the restored entries, writes the meta record at the
// snapshot's height and loads the state like a restart would.
func (a *App) finishRestore() error {
	rs := a.restore
	a.restore = nil
	a.genesis, a.pending, a.proposals = nil, nil, nil // InitChain's staged writes: the snapshot replaces them
	if err := rs.sink.Flush(); err != nil {
		return fmt.Errorf("app: restore: %w", err)
	}
	m, lanes := rs.r.Metadata(), rs.r.Lanes()
	meta := &subnetv1.Meta{Height: int64(m.Height), Time: m.Time, AppHash: m.AppHash, Lanes: lanes.Encode(), FirstHeight: int64(m.Height)}
	if err := store.PersistMeta(a.db, meta); err != nil {
		return fmt.Errorf("app: restore: %w", err)
	}
	// CometBFT holds no blocks below the snapshot to replay a lost restore
	// from: the restored state reaches the disk before the node goes on.
	if err := a.durable.now(); err != nil {
		return fmt.Errorf("app: restore: sync: %w", err)
	}
	if err := a.load(); err != nil {
		return fmt.Errorf("app: restored state: %w", err)
	}
	a.publish()
	a.logger.Info("snapshot restored", "height", m.Height, "app_hash", fmt.Sprintf("%X", m.AppHash))
	return nil
}

// abortRestore drops a restore in progress (a new offer replaces it).
func (a *App) abortRestore() {
	if a.restore != nil {
		a.restore.sink.Cancel()
		a.restore = nil
	}
}

// retainHeight is Commit's RetainHeight: the lowest height the block store
// must keep, or 0 to keep everything. It never passes the oldest snapshot
// this node serves (a peer restoring it may need the blocks after it), nor
// the evidence age (evidence of a pruned height could not be verified).
func (a *App) retainHeight() int64 {
	if a.retainBlocks <= 0 || a.height <= a.retainBlocks {
		return 0
	}
	h := a.height - a.retainBlocks + 1
	if a.evidenceAge > 0 {
		h = min(h, a.height-a.evidenceAge)
	}
	if a.snapshots.Dir != "" && a.snapshots.Interval > 0 {
		if infos, err := snapshot.List(a.snapshots.Dir); err == nil && len(infos) > 0 {
			oldest := int64(infos[0].Height)
			for _, i := range infos {
				oldest = min(oldest, int64(i.Height))
			}
			h = min(h, oldest)
		}
	}
	return max(h, 0)
}
