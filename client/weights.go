package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/scoringsubnet/validatord/app/wire"
)

// ParentWeights is an epoch's u16 weight vector in the shape Bittensor's
// set_weights takes (netuid, uids, weights, version_key), with where it came
// from: the state at Height, whose app hash (AppHash, in the header of block
// Height+1) and score digest (store.ScoreDigest, what `validatord replay`
// recomputes from the blocks) let anyone check the vector against the chain.
type ParentWeights struct {
	NetUID      *uint16  `json:"netuid,omitempty"`
	UIDs        []uint16 `json:"uids"`
	Weights     []uint16 `json:"weights"`
	VersionKey  uint64   `json:"version_key"`
	Epoch       uint64   `json:"epoch"`
	EpochHeight int64    `json:"epoch_height"`
	Height      int64    `json:"height"`
	AppHash     string   `json:"app_hash"`
	ScoreDigest string   `json:"score_digest"`
}

// WeightsRequest selects the epoch: Epoch n (read at the height that stored
// it), or the latest epoch as of Height, or with neither the latest epoch
// (read at its own height). NetUID, when set, is written as is; else it is
// the mirror's netuid in mirror mode and absent in pow mode. VersionKey is
// passed through (the subnet's weights_version hyperparameter).
type WeightsRequest struct {
	Epoch      uint64
	Height     int64
	NetUID     *uint16
	VersionKey uint64
}

// ErrNoEpoch is wrapped when the selected epoch does not exist (yet).
var ErrNoEpoch = errors.New("no such epoch")

// HeightQuerier answers a query as of a height (0: the last committed);
// *Client is one.
type HeightQuerier interface {
	QueryAt(ctx context.Context, path string, height int64) ([]byte, error)
}

// Weights reads the selected epoch and the score digest from one state
// version and returns them as ParentWeights. The state must still be kept by
// the node (keep_versions) unless it is the last committed one.
func Weights(ctx context.Context, q HeightQuerier, req WeightsRequest) (ParentWeights, error) {
	if req.Epoch > 0 && req.Height > 0 {
		return ParentWeights{}, errors.New("weights: give an epoch or a height, not both")
	}
	if req.Height < 0 {
		return ParentWeights{}, fmt.Errorf("weights: height %d, want >= 0", req.Height)
	}
	path := "epoch/latest"
	if req.Epoch > 0 {
		path = fmt.Sprintf("epoch/%d", req.Epoch)
	}
	h := req.Height
	if h == 0 {
		first, err := epochAt(ctx, q, path, 0)
		if err != nil {
			return ParentWeights{}, err
		}
		h = first.Epoch.Height
	}
	ep, err := epochAt(ctx, q, path, h)
	if err != nil {
		return ParentWeights{}, err
	}
	var d wire.DigestView
	if err := queryAt(ctx, q, "digest", h, &d); err != nil {
		return ParentWeights{}, err
	}
	netuid := req.NetUID
	if netuid == nil {
		var m wire.MirrorView
		err := queryAt(ctx, q, "mirror", h, &m)
		var qe *QueryError
		switch {
		case err == nil:
			netuid = &m.NetUID
		case !errors.As(err, &qe) || qe.Code != wire.QueryNotFound:
			return ParentWeights{}, err
		}
	}
	return ParentWeightsOf(ep.Epoch, d, netuid, req.VersionKey)
}

// ParentWeightsOf converts an epoch (its u16 vector, ascending uids) and the
// digest of the state it was read from.
func ParentWeightsOf(ep *wire.EpochResultView, d wire.DigestView, netuid *uint16, versionKey uint64) (ParentWeights, error) {
	if ep == nil {
		return ParentWeights{}, ErrNoEpoch
	}
	out := ParentWeights{NetUID: netuid, UIDs: make([]uint16, len(ep.U16)), Weights: make([]uint16, len(ep.U16)),
		VersionKey: versionKey, Epoch: ep.Number, EpochHeight: ep.Height, Height: d.Height, AppHash: d.AppHash, ScoreDigest: d.ScoreDigest}
	for i, w := range ep.U16 {
		if w.UID > math.MaxUint16 || w.Weight > math.MaxUint16 {
			return ParentWeights{}, fmt.Errorf("epoch %d: u16[%d] = {uid %d, weight %d} does not fit in u16", ep.Number, i, w.UID, w.Weight)
		}
		out.UIDs[i], out.Weights[i] = uint16(w.UID), uint16(w.Weight)
	}
	return out, nil
}

// epochAt reads an epoch answer; not found wraps ErrNoEpoch.
func epochAt(ctx context.Context, q HeightQuerier, path string, h int64) (*wire.EpochView, error) {
	var ep wire.EpochView
	err := queryAt(ctx, q, path, h, &ep)
	var qe *QueryError
	if errors.As(err, &qe) && qe.Code == wire.QueryNotFound {
		return nil, fmt.Errorf("%w: %v", ErrNoEpoch, err)
	}
	return &ep, err
}

func queryAt(ctx context.Context, q HeightQuerier, path string, h int64, v any) error {
	bz, err := q.QueryAt(ctx, path, h)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(bz, v); err != nil {
		return fmt.Errorf("query %s: %w", path, err)
	}
	return nil
}
