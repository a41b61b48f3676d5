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

// LatestEpoch proves the latest epoch: the counters record at the latest
// provable height names the latest epoch there, and that epoch's record is
// proven at the same height, so a primary cannot pass an older epoch off
// as the latest (it can only be as stale as the header the light client
// verified: Proven.Header.Time says how fresh that is).
func (v *Verifier) LatestEpoch(ctx context.Context) (*subnetv1.Epoch, Proven, error) {
	c, at, err := query(ctx, v, wire.StoreCounters, wire.CountersKey(), &subnetv1.Counters{})
	if err != nil {
		return nil, Proven{}, err
	}
	if c.Epochs == 0 {
		return nil, at, fmt.Errorf("lightproof: no epoch yet at height %d (proven)", at.Height)
	}
	p, err := v.Query(ctx, wire.StoreEpoch, wire.EpochKey(c.Epochs), at.Height)
	if err != nil {
		return nil, p, err
	}
	ep := &subnetv1.Epoch{}
	if err := proto.Unmarshal(p.Value, ep); err != nil {
		return nil, p, fmt.Errorf("lightproof: the proven epoch %d does not decode: %w", c.Epochs, err)
	}
	return ep, p, nil
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
