package app

import (
	"strings"

	"github.com/scoringsubnet/validatord/app/gas"
	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/membership"
	"github.com/scoringsubnet/validatord/app/retain"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/tasks"
	"github.com/scoringsubnet/validatord/app/wire"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
	"github.com/scoringsubnet/validatord/x/window"
)

// endEpoch is the end of block's "epoch" step: at every EpochBlocks-th
// height, the epoch's weights. Its work is bounded by genesis (max_uids ×
// tracks), not by the meter: an epoch is never split or deferred.
func endEpoch(env kernel.Env, m *budget.Meter) ([]abcitypes.Event, bool) {
	if env.Block.Height%env.Chain.Gen.Window.EpochBlocks != 0 {
		return nil, false
	}
	miners := int64(env.St.Counters().Miners)
	m.ChargeEnd(budget.UnitsEpochMiner*miners*int64(len(env.Chain.Gen.Tracks)) + budget.UnitsLookup*miners) // + the prune queue
	return runEpoch(env), false
}

// runEpoch computes the epoch's weights from every track's miner aggregates
// (in genesis track order, miners in uid order) and stores it.
func runEpoch(env kernel.Env) []abcitypes.Event {
	st, h := env.St, env.Block.Height
	tracks := trackScores(env)
	res, err := window.ComputeEpoch(env.Chain.Gen.Window, h, tracks)
	if err != nil {
		return []abcitypes.Event{wire.Event("epoch_skipped", "height", kernel.I64s(h), "reason", err.Error())}
	}
	c := st.Counters()
	c.Epochs++
	st.Save(store.KeyCounters, c)
	ep := &subnetv1.Epoch{Number: c.Epochs, Height: h, Unallocated: kernel.FmtDec(res.Unallocated)}
	for i, uid := range res.UIDs {
		ep.Uids = append(ep.Uids, uint32(uid))
		ep.Weights = append(ep.Weights, kernel.FmtDec(res.Weights[i]))
	}
	var u16 []string
	for _, w := range res.U16 {
		ep.U16 = append(ep.U16, &subnetv1.U16Weight{Uid: uint32(w.UID), Weight: uint32(w.Weight)})
		u16 = append(u16, kernel.U64s(uint64(w.UID))+":"+kernel.U64s(uint64(w.Weight)))
	}
	for _, t := range tracks {
		pt := &subnetv1.TrackScore{Track: t.Track, Share: kernel.FmtDec(t.Share)}
		for i, uid := range t.UIDs {
			pt.Uids = append(pt.Uids, uint32(uid))
			pt.Scores = append(pt.Scores, kernel.FmtDec(t.Scores[i]))
		}
		ep.Tracks = append(ep.Tracks, pt)
	}
	st.Save(store.KeyEpoch(c.Epochs), ep)
	retain.Epoch(st, h, c.Epochs)
	if !env.Chain.Gen.IsMirror() {
		membership.WritePruneQueue(env, res.U16) // mirror mode: the parent chain prunes
	}
	return []abcitypes.Event{wire.Event(wire.EventEpochWeights, "epoch", kernel.U64s(c.Epochs), "height", kernel.I64s(h),
		"unallocated", ep.Unallocated, "u16", strings.Join(u16, ","))}
}

// trackScores collects, per track in genesis order, the uids (in uid order)
// that have an aggregate and the aggregates.
func trackScores(env kernel.Env) []window.TrackScores {
	miners := env.St.Counters().Miners
	out := make([]window.TrackScores, 0, len(env.Chain.Gen.Tracks))
	for _, tr := range env.Chain.Gen.Tracks {
		unit := trackUnit(tr.Name)
		ts := window.TrackScores{Track: tr.Name, Share: tr.Share}
		for n := uint32(0); n < miners; n++ {
			uid := env.Chain.UIDAt(n)
			if score, ok := unit.Aggregate(env, uid); ok {
				ts.UIDs = append(ts.UIDs, uint16(uid))
				ts.Scores = append(ts.Scores, score)
			}
		}
		out = append(out, ts)
	}
	return out
}

// tracks are the track units, one per genesis track name.
var tracks = []kernel.Track{tasks.Workflow, tasks.Arena, gas.Track}

// trackUnit returns the unit of a genesis track name (genesis validation
// admits no other names).
func trackUnit(name string) kernel.Track {
	for _, t := range tracks {
		if t.Name() == name {
			return t
		}
	}
	panic("app: no unit for track " + name)
}
