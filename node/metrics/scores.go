package metrics

import (
	"context"
	"errors"
	"strconv"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/internal/appquery"
)

// querier reads the committed state for the observer; a failed read leaves
// the series as they were.
type querier struct {
	ctx context.Context
	app abcitypes.Application
}

func (q querier) status() (*wire.StatusView, bool) {
	v, err := appquery.Get[wire.StatusView](q.ctx, q.app, "status")
	return v, err == nil
}

func (q querier) submission(id uint64) (*wire.SubmissionView, bool) {
	v, err := appquery.Get[wire.SubmissionView](q.ctx, q.app, "submission/"+strconv.FormatUint(id, 10))
	return v, err == nil
}

func decimalFloat(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0
	}
	return f
}

func uidLabel(uid uint32) string { return strconv.FormatUint(uint64(uid), 10) }

// refreshScores sets the per-uid gauges from the leaderboards and the
// latest epoch. Each vector is reset first, so the series of a uid that
// left (no aggregate, no weight) go: the series are bounded by max_uids.
// It reports whether the answers were read.
func (o *observer) refreshScores(q querier) bool {
	tracks, err := appquery.Tracks(q.ctx, q.app)
	if err != nil {
		return false
	}
	o.m.MinerScore.Reset()
	for _, tr := range tracks {
		lb, err := appquery.Get[wire.LeaderboardView](q.ctx, q.app, "leaderboard/"+tr)
		if err != nil {
			continue
		}
		for _, e := range lb.Miners {
			o.m.MinerScore.WithLabelValues(tr, uidLabel(e.UID)).Set(decimalFloat(e.Score))
		}
	}
	o.m.MinerWeight.Reset()
	o.m.MinerWeightU16.Reset()
	ep, err := appquery.Get[wire.EpochView](q.ctx, q.app, "epoch/latest")
	if errors.Is(err, appquery.ErrNotFound) {
		return true
	}
	if err != nil || ep.Epoch == nil {
		return false
	}
	e := ep.Epoch
	o.m.EpochNumber.Set(float64(e.Number))
	o.m.EpochHeight.Set(float64(e.Height))
	o.m.EpochUnallocated.Set(decimalFloat(e.Unallocated))
	for i, uid := range e.UIDs {
		if i < len(e.Weights) {
			o.m.MinerWeight.WithLabelValues(uidLabel(uid)).Set(decimalFloat(e.Weights[i]))
		}
	}
	for _, w := range e.U16 {
		o.m.MinerWeightU16.WithLabelValues(uidLabel(w.UID)).Set(float64(w.Weight))
	}
	return true
}
