package leaderboard

import (
	"context"
	"encoding/hex"
	"io"
	"net/http"
	"strings"
	"testing"

	cmtcrypto "github.com/cometbft/cometbft/proto/tendermint/crypto"
	"github.com/cosmos/gogoproto/proto"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client/lightproof"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/internal/testnode"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// get fetches url and returns its status and body.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

// fetch is the body of url, which must answer 200.
func fetch(t *testing.T, url string) string {
	t.Helper()
	code, body := get(t, url)
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", url, code, body)
	}
	return body
}

// TestEpochJSONProof: /epoch.json carries the epoch record's proof, and a
// reader who trusts the validators, not the page, checks it with CometBFT's
// light client (the node's RPC serves as primary and as witness: two
// clients of one node).
func TestEpochJSONProof(t *testing.T) {
	n := testnode.Start(t, testnode.Options{ChainID: "leaderboard-proof", Edit: func(g *genesis.AppState) { g.Window.EpochBlocks = 5 }})
	srv, err := Listen("127.0.0.1:0", n.App)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close(context.Background()) })
	ctx := testnode.Ctx(t)
	var page EpochPage
	// An epoch is proven from the block after the one that stored it.
	for h := int64(7); page.Proof == nil; h++ {
		n.WaitHeight(t, h)
		page = EpochPage{}
		getJSON(t, "http://"+srv.Addr()+"/epoch.json", &page)
		if page.ProofError != "" || h > 30 {
			t.Fatalf("no proof by height %d: %+v", h, page)
		}
	}
	p := page.Proof
	key := wire.EpochKey(page.Number)
	if p.Path != wire.StoreQueryPath(wire.StoreEpoch) || p.Key != hex.EncodeToString(key) || p.Height < page.Height || len(p.ProofOps) == 0 {
		t.Fatalf("proof %+v of epoch %d at %d", p, page.Number, page.Height)
	}
	// The HTML says so too (but in the block right after a new epoch).
	for h := page.Height; ; h++ {
		n.WaitHeight(t, h)
		html := fetch(t, "http://"+srv.Addr()+"/epoch")
		if strings.Contains(html, `id="proof-height"`) {
			break
		}
		if h > page.Height+20 {
			t.Fatalf("the epoch page never says it has a proof:\n%s", html)
		}
	}
	value, err := hex.DecodeString(p.Value)
	if err != nil {
		t.Fatal(err)
	}
	var ep subnetv1.Epoch
	if err := proto.Unmarshal(value, &ep); err != nil || ep.Number != page.Number || ep.Height != page.Height {
		t.Fatalf("proven epoch %+v %v, page's %d at %d", &ep, err, page.Number, page.Height)
	}
	v, err := lightproof.New(ctx, lightproof.Options{ChainID: n.ChainID, Primary: n.Addr, Witnesses: []string{n.Addr}})
	if err != nil {
		t.Fatal(err)
	}
	ops := &cmtcrypto.ProofOps{Ops: p.ProofOps}
	if _, err := v.Check(ctx, wire.StoreEpoch, key, value, p.Height, ops, nil); err != nil {
		t.Fatal(err)
	}
	value[0] ^= 1
	if _, err := v.Check(ctx, wire.StoreEpoch, key, value, p.Height, ops, nil); err == nil {
		t.Fatal("a changed record verified")
	}
}
