package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
)

// TestQueryAt: a query with a height is answered from the state as of that
// height, the same status the node answered live then; a height not
// committed yet is a bad request; Query is QueryAt of the newest.
func TestQueryAt(t *testing.T) {
	n := startNode(t)
	c := dial(t, n.addr)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	live := map[int64]wire.StatusView{}
	for len(live) < 4 {
		st, err := c.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		live[st.Height] = *st
		time.Sleep(30 * time.Millisecond)
	}
	var latest int64
	for h, want := range live {
		bz, err := c.QueryAt(ctx, "status", h)
		if err != nil {
			t.Fatalf("status at %d: %v", h, err)
		}
		var got wire.StatusView
		if err := json.Unmarshal(bz, &got); err != nil {
			t.Fatal(err)
		}
		if got.Height != h || got.AppHash != want.AppHash || *got.ChainID != *want.ChainID {
			t.Fatalf("status at %d: %+v, live %+v", h, got, want)
		}
		latest = max(latest, h)
	}
	_, err := c.QueryAt(ctx, "status", latest+1_000_000)
	var qe *client.QueryError
	if !errors.As(err, &qe) || qe.Code != wire.QueryBadRequest {
		t.Fatalf("status at a future height: %v", err)
	}
	if _, err := c.QueryAt(ctx, "status", -1); err == nil {
		t.Fatal("a negative height was sent")
	}
	bz, err := c.Query(ctx, "status")
	if err != nil {
		t.Fatal(err)
	}
	var now wire.StatusView
	if err := json.Unmarshal(bz, &now); err != nil || now.Height < latest {
		t.Fatalf("status: %s (%v), after height %d", bz, err, latest)
	}
}
