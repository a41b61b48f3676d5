package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// leaderboard is the answer of the leaderboard/<track> query.
type leaderboard struct {
	Track  string `json:"track"`
	Height int64  `json:"height"`
	Miners []struct {
		Rank  int    `json:"rank"`
		UID   uint32 `json:"uid"`
		Score string `json:"score"`
	} `json:"miners"`
}

// epochAnswer is the answer of the epoch/latest query.
type epochAnswer struct {
	Epoch struct {
		Number      uint64   `json:"number"`
		Height      int64    `json:"height"`
		UIDs        []uint32 `json:"uids"`
		Weights     []string `json:"weights"`
		Unallocated string   `json:"unallocated"`
		U16         []struct {
			UID    uint32 `json:"uid"`
			Weight uint32 `json:"weight"`
		} `json:"u16"`
	} `json:"epoch"`
	WeightsSum string `json:"weights_sum"`
}

// printResults waits for the first epoch after the load, then prints every
// track's leaderboard and that epoch's weights.
func printResults(ctx context.Context, out io.Writer, c *chain, p plan) error {
	h, err := c.height(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "waiting for the epoch after height %d (every %d blocks)\n", h, p.epochBlocks)
	if err := c.waitHeight(ctx, h+p.epochBlocks+1); err != nil {
		return err
	}
	fmt.Fprintln(out, "\nleaderboards rank each track's aggregate: workflow = window mean × min(1, tasks seen / warm-up tasks);\narena = mean run score / 100; gas = the agent's latest TotalScore (docs/queries.md)")
	for _, track := range p.tracks() {
		var lb leaderboard
		if err := c.queryInto(ctx, "leaderboard/"+track, &lb); err != nil {
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
	var ep epochAnswer
	if err := c.queryInto(ctx, "epoch/latest", &ep); err != nil {
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

func u16Vector(ws []struct {
	UID    uint32 `json:"uid"`
	Weight uint32 `json:"weight"`
}) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = fmt.Sprintf("%d:%d", w.UID, w.Weight)
	}
	return strings.Join(parts, " ")
}

// queryInto runs a query and decodes its JSON answer into v.
func (c *chain) queryInto(ctx context.Context, path string, v any) error {
	bz, err := c.query(ctx, path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(bz, v); err != nil {
		return fmt.Errorf("query %s: %w", path, err)
	}
	return nil
}
