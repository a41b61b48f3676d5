package demo

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
)

// example is a submission whose receipt the demo shows.
type example struct {
	what string
	c    *commitment // nil: none
}

type examples []example

// printResults waits for the first epoch after the load, then prints every
// track's leaderboard, that epoch's weights and the examples' receipts.
func printResults(ctx context.Context, out io.Writer, c *chain, p plan, ex examples) error {
	st, err := c.NodeStatus(ctx)
	if err != nil {
		return err
	}
	h := st.Height
	fmt.Fprintf(out, "waiting for the epoch after height %d (every %d blocks)\n", h, p.epochBlocks)
	if _, err := c.WaitHeight(ctx, h+p.epochBlocks+1, 100*time.Millisecond); err != nil {
		return err
	}
	fmt.Fprintln(out, "\nleaderboards rank each track's aggregate: workflow = window mean × min(1, tasks seen / warm-up tasks);\narena = mean run score / 100; gas = the agent's latest TotalScore (docs/queries.md)")
	for _, track := range p.tracks() {
		lb, err := c.Leaderboard(ctx, track)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "\nleaderboard %s (height %d)\n  rank  uid  score\n", lb.Track, lb.Height)
		for _, m := range lb.Miners {
			fmt.Fprintf(out, "  %4d  %3d  %s\n", m.Rank, m.UID, m.Score)
		}
		if len(lb.Miners) == 0 {
			fmt.Fprintln(out, "  (no scored miner yet)")
		}
		if track == genesis.TrackGas {
			explainNeverIncluded(out, p, lb.Miners)
		}
	}
	ep, err := c.LatestEpoch(ctx)
	if err != nil {
		return err
	}
	e := ep.Epoch
	fmt.Fprintf(out, "\nepoch %d weights (height %d, cap-limited, sum %s, unallocated %s)\n  uid  weight                u16\n", e.Number, e.Height, ep.WeightsSum, e.Unallocated)
	u16 := map[uint32]uint32{}
	for _, w := range e.U16 {
		u16[w.UID] = w.Weight
	}
	for i, uid := range e.UIDs {
		fmt.Fprintf(out, "  %3d  %s  %5d\n", uid, e.Weights[i], u16[uid])
	}
	fmt.Fprintf(out, "  u16 vector (sums to 65535): %s\n", u16Vector(e.U16))
	return printReceipts(ctx, out, c, ex)
}

// explainNeverIncluded says why gas agents sit at 1 − w_inclusion (0.5 by
// default): their bids were under the truth in every window (miner i bids
// the truth × (0.97 + 0.02·i), so miners 0 and 1 underbid), so inclusion,
// half the score, is 0; a bid never included has no overpayment and no
// spread, and every one was fresh, so the other four terms are 1.
func explainNeverIncluded(out io.Writer, p plan, rows []wire.LeaderboardEntry) {
	var uids []string
	for _, m := range rows {
		if s, err := decimal.NewFromString(m.Score); err == nil && s.Equal(p.gasNeverIncluded) {
			uids = append(uids, fmt.Sprint(m.UID))
		}
	}
	if len(uids) == 0 {
		return
	}
	label := "uid"
	if len(uids) > 1 {
		label = "uids"
	}
	fmt.Fprintf(out, "  %s %s at %s = 1 − gas.w_inclusion: every bid was under the truth (miner i bids it × (0.97 + 0.02·i)),\n"+
		"  so none was included and inclusion, weight %s, scores 0; a bid never included overpays nothing and never\n"+
		"  varies, and each was fresh, so the other four terms score 1 (docs/scoring.md §4)\n",
		label, strings.Join(uids, ", "), p.gasNeverIncluded.String(), decimal.NewFromInt(1).Sub(p.gasNeverIncluded).String())
}

// printReceipts prints each example's status, score and the commit section
// of its receipt (submission/<id>): when its payload was committed and
// revealed, and whether it is a duplicate of an earlier commit's artifact.
func printReceipts(ctx context.Context, out io.Writer, c *chain, ex examples) error {
	fmt.Fprintln(out, "\nreceipts (query submission/<id>): the commit section says when the payload was committed and revealed,\nand whether an earlier commit revealed the same artifact")
	for _, e := range ex {
		if e.c == nil {
			continue
		}
		v, err := c.Submission(ctx, e.c.sub)
		if err != nil {
			return err
		}
		score := "none"
		var commit, note string
		if r := v.Receipt; r != nil {
			if r.Score != "" {
				score = r.Score
			}
			commit, note = fields(r.Commit), r.Note
		}
		fmt.Fprintf(out, "  %s: submission %d (uid %d, %s), status %s, score %s\n    commit: %s\n", e.what, v.ID, v.UID, v.Track, v.Status, score, commit)
		if note != "" {
			fmt.Fprintf(out, "    note: %s\n", note)
		}
	}
	return nil
}

func fields(fs []wire.FieldView) string {
	if len(fs) == 0 {
		return "(none)"
	}
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.Name + "=" + f.Value
	}
	return strings.Join(parts, " ")
}

func u16Vector(ws []wire.U16WeightView) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = fmt.Sprintf("%d:%d", w.UID, w.Weight)
	}
	return strings.Join(parts, " ")
}
