package app

import (
	"strings"

	"github.com/scoringsubnet/validatord/app/wire"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/scoring"
	"github.com/scoringsubnet/validatord/x/window"
)

// runEpoch computes the epoch's weights from every track's miner aggregates
// (in genesis track order, miners in uid order) and stores it.
func (a *App) runEpoch(st state, bs *blockState) []abcitypes.Event {
	tracks := a.trackScores(st)
	res, err := window.ComputeEpoch(a.chain.gen.Window, bs.height, tracks)
	if err != nil {
		return []abcitypes.Event{wire.Event("epoch_skipped", "height", i64s(bs.height), "reason", err.Error())}
	}
	c := st.counters()
	c.Epochs++
	st.save(keyCounters, c)
	ep := &subnetv1.Epoch{Number: c.Epochs, Height: bs.height, Unallocated: fmtDec(res.Unallocated)}
	for i, uid := range res.UIDs {
		ep.Uids = append(ep.Uids, uint32(uid))
		ep.Weights = append(ep.Weights, fmtDec(res.Weights[i]))
	}
	var u16 []string
	for _, w := range res.U16 {
		ep.U16 = append(ep.U16, &subnetv1.U16Weight{Uid: uint32(w.UID), Weight: uint32(w.Weight)})
		u16 = append(u16, u64s(uint64(w.UID))+":"+u64s(uint64(w.Weight)))
	}
	for _, t := range tracks {
		pt := &subnetv1.TrackScore{Track: t.Track, Share: fmtDec(t.Share)}
		for i, uid := range t.UIDs {
			pt.Uids = append(pt.Uids, uint32(uid))
			pt.Scores = append(pt.Scores, fmtDec(t.Scores[i]))
		}
		ep.Tracks = append(ep.Tracks, pt)
	}
	st.save(keyEpoch(c.Epochs), ep)
	return []abcitypes.Event{wire.Event(wire.EventEpochWeights, "epoch", u64s(c.Epochs), "height", i64s(bs.height),
		"unallocated", ep.Unallocated, "u16", strings.Join(u16, ","))}
}

// trackScores collects, per track, the uids that have an aggregate and the aggregates.
func (a *App) trackScores(st state) []window.TrackScores {
	miners := st.counters().Miners
	out := make([]window.TrackScores, 0, len(a.chain.gen.Tracks))
	for _, tr := range a.chain.gen.Tracks {
		ts := window.TrackScores{Track: tr.Name, Share: tr.Share}
		for n := uint32(0); n < miners; n++ {
			uid := uidAt(n, a.chain.gen.Window.BurnUID)
			if score, ok := a.minerAggregate(st, tr.Name, uid); ok {
				ts.UIDs = append(ts.UIDs, uint16(uid))
				ts.Scores = append(ts.Scores, score)
			}
		}
		out = append(out, ts)
	}
	return out
}

// minerAggregate is a miner's aggregate on a track: workflow, the window's
// warm-up-discounted mean; arena, the mean of its recent arena scores / 100;
// gas, the mean of its latest TotalScore over the chains where it has one.
func (a *App) minerAggregate(st state, track string, uid uint32) (decimal.Decimal, bool) {
	switch track {
	case genesis.TrackWorkflow, genesis.TrackArena:
		tb := windowWorkflow
		if track == genesis.TrackArena {
			tb = windowArena
		}
		pw := &subnetv1.Window{}
		if !st.load(keyWindow(tb, uid), pw) {
			return decimal.Decimal{}, false
		}
		w := windowFromProto(pw)
		if tb == windowArena {
			return w.Mean(), true
		}
		return w.Aggregate(a.chain.gen.Window), true
	}
	var scores []decimal.Decimal
	for _, chain := range a.chain.gen.Chain.GasChains {
		pa := &subnetv1.GasAgent{}
		if st.load(keyGasAgent(chain, uid), pa) && pa.HasScore {
			scores = append(scores, mustDec(pa.Score))
		}
	}
	if len(scores) == 0 {
		return decimal.Decimal{}, false
	}
	m, err := scoring.Mean(scores)
	return m, err == nil
}
