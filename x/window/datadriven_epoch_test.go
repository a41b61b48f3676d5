package window

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/cockroachdb/datadriven"

	"github.com/scoringsubnet/validatord/x/scoring"
)

func init() { ddCommands["epoch"] = (*harness).cmdEpoch }

func (h *harness) cmdEpoch(td *datadriven.TestData) (string, error) {
	height, err := cmdArgs(td).int("height", 0)
	if err != nil {
		return "", err
	}
	var tracks []TrackScores
	for _, line := range strings.Split(strings.TrimSpace(td.Input), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		tr, err := h.parseTrack(lineArgs(line))
		if err != nil {
			return "", err
		}
		tracks = append(tracks, tr)
	}
	res, err := ComputeEpoch(h.p, height, tracks)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "epoch %d (epoch height: %v)\n", res.Height, IsEpochHeight(h.p, height))
	for i, uid := range res.UIDs {
		fmt.Fprintf(&b, "  uid %d: %s\n", uid, f(res.Weights[i]))
	}
	fmt.Fprintf(&b, "  unallocated: %s\n  u16:", f(res.Unallocated))
	for _, w := range res.U16 {
		fmt.Fprintf(&b, " %d=%d", w.UID, w.Weight)
	}
	b.WriteString("\n")
	return b.String(), nil
}

func (h *harness) parseTrack(a args) (TrackScores, error) {
	share, err := a.dec("share")
	if err != nil {
		return TrackScores{}, err
	}
	tr := TrackScores{Track: a["track"], Share: share}
	if _, ok := a["scores"]; !ok {
		uids := make([]uint16, 0, len(h.miners))
		for uid := range h.miners {
			uids = append(uids, uid)
		}
		sort.Slice(uids, func(i, j int) bool { return uids[i] < uids[j] })
		for _, uid := range uids {
			tr.UIDs = append(tr.UIDs, uid)
			tr.Scores = append(tr.Scores, h.miners[uid].Aggregate(h.p))
		}
		return tr, nil
	}
	for _, pair := range strings.Split(a["scores"], ",") {
		u, s, _ := strings.Cut(pair, ":")
		uid, err := strconv.ParseUint(u, 10, 16)
		if err != nil {
			return TrackScores{}, err
		}
		v, err := scoring.Parse(s)
		if err != nil {
			return TrackScores{}, err
		}
		tr.UIDs = append(tr.UIDs, uint16(uid))
		tr.Scores = append(tr.Scores, v)
	}
	return tr, nil
}
