package leaderboard

import (
	"context"
	"fmt"
	"testing"

	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/internal/testnode"
)

// TestInactiveMiner: on a chain whose activity cutoff is one epoch on every
// track, a miner scored once loses its aggregates that many blocks after
// its last scored work (the metagraph's last_update); /epochs keeps it
// listed as inactive since that height instead of dropping it, and its
// page says so too.
func TestInactiveMiner(t *testing.T) {
	o := testnode.DriveOptions()
	drive := o.Edit
	o.ChainID = "leaderboard-inactive"
	o.Edit = func(g *genesis.AppState) {
		drive(g)
		for i := range g.Tracks {
			g.Tracks[i].ActivityCutoffBlocks = testnode.EpochBlocks
		}
	}
	n := testnode.Start(t, o)
	d := n.Drive(t)
	ctx := testnode.Ctx(t)
	mg, err := n.Client.Metagraph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var last int64
	for _, u := range mg.UIDs {
		if u.UID == d.UID {
			last = u.LastUpdate
		}
	}
	if last == 0 {
		t.Fatalf("uid %d has no last update in %+v", d.UID, mg.UIDs)
	}
	n.WaitHeight(t, last+testnode.EpochBlocks+1)
	srv, err := Listen("127.0.0.1:0", n.App)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close(context.Background()) })
	base := "http://" + srv.Addr()
	want := fmt.Sprintf("inactive since height %d", last+testnode.EpochBlocks+1)
	var page EpochsPage
	getJSON(t, base+"/epochs.json", &page)
	found := false
	for _, r := range page.Rows {
		if r.UID == d.UID {
			found = true
			if r.Label != want || r.Link == "" {
				t.Errorf("row %+v, want %q", r, want)
			}
		}
	}
	if !found {
		t.Errorf("uid %d vanished from /epochs: %+v", d.UID, page.Rows)
	}
	var mp MinerPage
	getJSON(t, fmt.Sprintf("%s/miner/%d.json", base, d.UID), &mp)
	if mp.Inactive != want {
		t.Errorf("miner page inactive %q, want %q (aggregates %+v)", mp.Inactive, want, mp.Aggregates)
	}
}
