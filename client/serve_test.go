package client_test

import (
	"errors"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
)

// TestServe: a registered miner's address reaches its miner and metagraph
// rows through client.Serve; a second one within wire.ServeInterval blocks
// and a bad address are refused with their codes.
func TestServe(t *testing.T) {
	c, _, miner, uid := flowNode(t)
	const addr = "http://203.0.113.7:8091"
	if m := client.Serve(addr).GetServe(); m == nil || m.Address != addr {
		t.Fatalf("client.Serve built %+v", m)
	}
	res, err := miner.SendWait(ctxT(t), client.Serve(addr), waitFor)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := res.Attr(wire.EventMinerServed, "address"); got != addr {
		t.Fatalf("miner_served address = %q", got)
	}
	mv, err := c.Miner(ctxT(t), uid)
	if err != nil || mv.Address != addr || mv.ServedHeight != res.Height {
		t.Fatalf("miner/%d: %+v, %v; want address %s served at %d", uid, mv, err, addr, res.Height)
	}
	mg, err := c.Metagraph(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, row := range mg.UIDs {
		found = found || (row.UID == uid && row.Address == addr)
	}
	if !found {
		t.Fatalf("metagraph has no row of uid %d with address %s: %+v", uid, addr, mg.UIDs)
	}
	for _, tc := range []struct {
		addr string
		code uint32
	}{{"http://203.0.113.7:8092", wire.CodeServeTooSoon}, {"ftp://203.0.113.7", wire.CodeServeAddress}} {
		_, err := miner.SendWait(ctxT(t), client.Serve(tc.addr), waitFor)
		var te *client.TxError
		if !errors.As(err, &te) || te.Code != tc.code {
			t.Fatalf("serve %s: %v, want code %d", tc.addr, err, tc.code)
		}
	}
}
