package lightproof

import (
	"context"
	"fmt"

	"github.com/cosmos/gogoproto/proto"

	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// query queries key of store name at the latest provable height and
// decodes the proven value into m.
func query[M proto.Message](ctx context.Context, v *Verifier, name string, key []byte, m M) (M, Proven, error) {
	p, err := v.Query(ctx, name, key, 0)
	if err != nil {
		return m, p, err
	}
	if err := proto.Unmarshal(p.Value, m); err != nil {
		return m, p, fmt.Errorf("lightproof: the proven %s record %x does not decode: %w", name, key, err)
	}
	return m, p, nil
}

// Epoch is epoch n's result, proven.
func (v *Verifier) Epoch(ctx context.Context, n uint64) (*subnetv1.Epoch, Proven, error) {
	return query(ctx, v, wire.StoreEpoch, wire.EpochKey(n), &subnetv1.Epoch{})
}

// LatestEpoch proves the latest epoch: its number comes from the primary's
// unproven "epoch/latest" answer, its record is then proven like any other,
// after the block that follows the epoch's (a primary naming an older epoch
// is not caught here: compare Proven.Header.Height with the epoch's height
// to see how fresh it is).
func (v *Verifier) LatestEpoch(ctx context.Context) (*subnetv1.Epoch, Proven, error) {
	ev, err := v.primary.LatestEpoch(ctx)
	if err != nil {
		return nil, Proven{}, err
	}
	if ev.Epoch == nil {
		return nil, Proven{}, fmt.Errorf("lightproof: the node has no epoch yet")
	}
	// The app proves the state one below its last block: an epoch stored
	// in that last block is provable once the next one is committed.
	if _, err := v.primary.WaitAppHeight(ctx, ev.Epoch.Height+1, v.poll); err != nil {
		return nil, Proven{}, fmt.Errorf("lightproof: waiting for the block after epoch %d's (%d) to prove it: %w", ev.Epoch.Number, ev.Epoch.Height, err)
	}
	return v.Epoch(ctx, ev.Epoch.Number)
}

// Submission is submission id with its votes and receipt, proven.
func (v *Verifier) Submission(ctx context.Context, id uint64) (*subnetv1.Submission, Proven, error) {
	return query(ctx, v, wire.StoreSubmission, wire.SubmissionKey(id), &subnetv1.Submission{})
}

// Window is uid's window on track ("workflow" or "arena"), proven.
func (v *Verifier) Window(ctx context.Context, track string, uid uint32) (*subnetv1.Window, Proven, error) {
	t, ok := wire.WindowTrack(track)
	if !ok {
		return nil, Proven{}, fmt.Errorf("lightproof: track %q has no window (want workflow or arena)", track)
	}
	return query(ctx, v, wire.StoreWindow, wire.WindowKey(t, uid), &subnetv1.Window{})
}

// GasAgent is uid's gas agent on EVM chain evmChainID, proven.
func (v *Verifier) GasAgent(ctx context.Context, evmChainID uint64, uid uint32) (*subnetv1.GasAgent, Proven, error) {
	return query(ctx, v, wire.StoreGasAgent, wire.GasAgentKey(evmChainID, uid), &subnetv1.GasAgent{})
}
