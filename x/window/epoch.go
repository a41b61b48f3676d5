package window

import (
	"fmt"
	"sort"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

// TrackScores is one track's input to an epoch: its share of the subnet's
// weight and its miners' aggregates (parallel UIDs and Scores, any order).
type TrackScores struct {
	Track  string
	Share  decimal.Decimal
	UIDs   []uint16
	Scores []decimal.Decimal
}

// EpochResult is what the chain stores for an epoch: the weight of every uid
// that appears in a track (ascending uid), the unallocated residual
// (weights + unallocated = 1) and the u16 vector for the parent chain.
type EpochResult struct {
	Height      int64
	UIDs        []uint16
	Weights     []decimal.Decimal
	Unallocated decimal.Decimal
	U16         []scoring.U16Weight
}

// IsEpochHeight reports whether an epoch is computed at height: every
// p.EpochBlocks blocks, starting at height EpochBlocks.
func IsEpochHeight(p Params, height int64) bool {
	return p.EpochBlocks > 0 && height > 0 && height%p.EpochBlocks == 0
}

// ComputeEpoch turns the tracks' aggregates into the epoch's weights:
//
//  1. each track's miner i gets Quo(score_i × share, Σ track scores) (one rounding);
//     a track whose scores sum to 0 gives nothing, and its share stays unallocated;
//  2. contributions are summed per uid, uids ascending;
//  3. the sum S of the active tracks' shares is water-filled with the cap:
//     scoring.CapWeights at the relative cap c/S (rounded down, at most 1), each
//     result scaled by S (with S = 1 this is CapWeights at p.Cap itself);
//  4. unallocated = 1 − Σ weights; scoring.ToU16 gives the u16 vector with the
//     unallocated part to p.BurnUID.
//
// Errors: invalid params, height < 1, no tracks, an empty or duplicate track
// name, a share outside [0,1], shares not summing to exactly 1, parallel
// slices of different lengths, a duplicate uid within a track, a negative
// score or one with more than 18 places.
func ComputeEpoch(p Params, height int64, tracks []TrackScores) (EpochResult, error) {
	if err := p.Validate(); err != nil {
		return EpochResult{}, err
	}
	if height < 1 {
		return EpochResult{}, inputErr("height", height, "must be at least 1")
	}
	if err := checkTracks(tracks); err != nil {
		return EpochResult{}, err
	}
	contribs, active := trackContributions(tracks)
	uids, combined := sumByUID(contribs)
	weights, err := capScaled(combined, p.Cap, active)
	if err != nil {
		return EpochResult{}, err
	}
	unallocated := scoring.One.Sub(scoring.Sum(weights))
	u16, err := scoring.ToU16(uids, weights, unallocated, p.BurnUID)
	if err != nil {
		return EpochResult{}, err
	}
	res := EpochResult{Height: height, UIDs: uids, Weights: weights, Unallocated: unallocated, U16: u16}
	res.mustHold(p)
	return res, nil
}

// mustHold checks the result's invariants; a failure is a bug in ComputeEpoch.
func (r EpochResult) mustHold(p Params) {
	for i, w := range r.Weights {
		if w.Sign() < 0 || w.Cmp(p.Cap) > 0 || (i > 0 && r.UIDs[i-1] >= r.UIDs[i]) {
			panic("window: epoch weight invariant broken")
		}
	}
	if r.Unallocated.Sign() < 0 || len(r.UIDs) != len(r.Weights) {
		panic("window: epoch totals invariant broken")
	}
}

// checkTracks validates the tracks' names, shares and scores.
func checkTracks(tracks []TrackScores) error {
	if len(tracks) == 0 {
		return inputErr("tracks", 0, "at least one track is required")
	}
	shares := scoring.Zero
	names := make([]string, 0, len(tracks))
	for _, t := range tracks {
		if err := checkTrack(t); err != nil {
			return err
		}
		shares = shares.Add(t.Share)
		names = append(names, t.Track)
	}
	sort.Strings(names)
	for i := 1; i < len(names); i++ {
		if names[i] == names[i-1] {
			return inputErr("track", names[i], "appears twice")
		}
	}
	if !shares.Equal(scoring.One) {
		return inputErr("shares", shares.String(), "track shares must sum to exactly 1")
	}
	return nil
}

// checkTrack validates one track on its own.
func checkTrack(t TrackScores) error {
	field := func(f string) string { return fmt.Sprintf("track %q %s", t.Track, f) }
	if t.Track == "" {
		return inputErr("track", "\"\"", "name must not be empty")
	}
	if t.Share.Sign() < 0 || t.Share.Cmp(scoring.One) > 0 || !fitsPlaces(t.Share) {
		return inputErr(field("share"), t.Share.String(), "must be in [0, 1] with at most 18 places")
	}
	if len(t.UIDs) != len(t.Scores) {
		return inputErr(field("scores"), len(t.Scores), fmt.Sprintf("must have one score per uid (%d uids)", len(t.UIDs)))
	}
	for i, s := range t.Scores {
		if s.Sign() < 0 || !fitsPlaces(s) {
			return inputErr(field(indexed("scores", i)), s.String(), "must be ≥ 0 with at most 18 places")
		}
	}
	uids := append([]uint16(nil), t.UIDs...)
	sort.Slice(uids, func(i, j int) bool { return uids[i] < uids[j] })
	for i := 1; i < len(uids); i++ {
		if uids[i] == uids[i-1] {
			return inputErr(field("uid"), uids[i], "appears twice")
		}
	}
	return nil
}

type contribution struct {
	uid uint16
	w   decimal.Decimal
}

// trackContributions returns every (uid, score × share / Σ) of the tracks
// whose scores sum to more than 0, and the sum of those tracks' shares.
func trackContributions(tracks []TrackScores) ([]contribution, decimal.Decimal) {
	var out []contribution
	active := scoring.Zero
	for _, t := range tracks {
		total := scoring.Sum(t.Scores)
		if total.Sign() == 0 || t.Share.Sign() == 0 {
			for _, uid := range t.UIDs {
				out = append(out, contribution{uid: uid, w: scoring.Zero})
			}
			continue
		}
		active = active.Add(t.Share)
		for i, uid := range t.UIDs {
			out = append(out, contribution{uid: uid, w: scoring.Quo(t.Scores[i].Mul(t.Share), total)})
		}
	}
	return out, active
}

// sumByUID merges contributions per uid, uids ascending.
func sumByUID(cs []contribution) ([]uint16, []decimal.Decimal) {
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].uid < cs[j].uid })
	var uids []uint16
	var ws []decimal.Decimal
	for _, c := range cs {
		if n := len(uids); n > 0 && uids[n-1] == c.uid {
			ws[n-1] = ws[n-1].Add(c.w)
			continue
		}
		uids = append(uids, c.uid)
		ws = append(ws, c.w)
	}
	return uids, ws
}

// capScaled water-fills the active share S: CapWeights at cap/S (rounded
// down so that (cap/S) × S ≤ cap, at most 1), then every weight × S. With no
// active share every weight is 0.
func capScaled(combined []decimal.Decimal, capW, active decimal.Decimal) ([]decimal.Decimal, error) {
	out := make([]decimal.Decimal, len(combined))
	if active.Sign() == 0 {
		for i := range out {
			out[i] = scoring.Zero
		}
		return out, nil
	}
	if active.Equal(scoring.One) {
		r, err := scoring.CapWeights(combined, capW)
		if err != nil {
			return nil, err
		}
		return r.Weights, nil
	}
	rel := relativeCap(capW, active)
	r, err := scoring.CapWeights(combined, rel)
	if err != nil {
		return nil, err
	}
	for i, w := range r.Weights {
		out[i] = scoring.Round(w.Mul(active))
	}
	return out, nil
}

// relativeCap is cap/active rounded down to 18 places and at most 1.
func relativeCap(capW, active decimal.Decimal) decimal.Decimal {
	rel := scoring.Quo(capW, active)
	if rel.Mul(active).Cmp(capW) > 0 {
		rel = rel.Sub(decimal.New(1, -scoring.Places))
	}
	return scoring.Clamp(rel, scoring.Zero, scoring.One)
}
