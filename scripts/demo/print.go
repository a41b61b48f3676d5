package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
)

// printResults waits for the first epoch after the load, then prints every
// track's leaderboard and that epoch's weights.
func printResults(ctx context.Context, out io.Writer, c *chain, p plan) error {
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
	return nil
}

func u16Vector(ws []wire.U16WeightView) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = fmt.Sprintf("%d:%d", w.UID, w.Weight)
	}
	return strings.Join(parts, " ")
}
