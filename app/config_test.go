package app

import (
	"context"
	"strings"
	"testing"

	cmtproto "github.com/cometbft/cometbft/proto/tendermint/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"
)

func TestParseCrashPoint(t *testing.T) {
	cases := []struct {
		in     string
		point  string
		height int64
		ok     bool
	}{
		{"", "", 0, true},
		{"finalize-begin", CrashFinalizeBegin, 0, true},
		{"commit-end@7", CrashCommitEnd, 7, true},
		{"commit-begin@1", CrashCommitBegin, 1, true},
		{"commit-begin@0", "", 0, false},
		{"commit-begin@x", "", 0, false},
		{"finalize-middle", "", 0, false},
	}
	for _, c := range cases {
		cp, err := ParseCrashPoint(c.in)
		if (err == nil) != c.ok || cp.Point != c.point || cp.Height != c.height {
			t.Errorf("%q: got %+v, %v", c.in, cp, err)
		}
	}
	if _, err := New(Config{CrashPoint: "nowhere"}); err == nil {
		t.Fatal("New accepted an unknown crash point")
	}
	cp, _ := ParseCrashPoint("finalize-end@3")
	if cp.hits(CrashFinalizeEnd, 2) || !cp.hits(CrashFinalizeEnd, 3) || cp.hits(CrashCommitEnd, 3) {
		t.Fatal("hits ignores the point or the height")
	}
}

// TestQueryErrors: malformed and missing paths answer codes, never panic.
func TestQueryErrors(t *testing.T) {
	n := newNode(t, "", testGenesis(1))
	n.block()
	cases := map[string]uint32{
		"":                  wire.QueryBadRequest,
		"nope":              wire.QueryBadRequest,
		"task":              wire.QueryBadRequest,
		"miner/abc":         wire.QueryBadRequest,
		"miner/70000":       wire.QueryBadRequest,
		"account/zz":        wire.QueryBadRequest,
		"gas/1/x":           wire.QueryBadRequest,
		"leaderboard/chess": wire.QueryBadRequest,
		"miner/5":           wire.QueryNotFound,
		"submission/0":      wire.QueryNotFound,
		"epoch/latest":      wire.QueryNotFound,
		"baseline/3":        wire.QueryNotFound,
		"/status":           wire.QueryOK,
		"leaderboard/gas":   wire.QueryOK,
		"/account/" + kernel.Hexs(newSigner("q").pub()): wire.QueryOK,
	}
	for path, want := range cases {
		if _, got := n.query(path); got != want {
			t.Errorf("query %q: code %d, want %d", path, got, want)
		}
	}
}

// TestInitChainRefusesUnboundedBlocks: consensus params beyond the app's
// block bound (here CometBFT's default 21 MiB) are refused at InitChain
// too, for nodes not started through `validatord start`.
func TestInitChainRefusesUnboundedBlocks(t *testing.T) {
	a, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	req := initRequest(t, testGenesis(1))
	req.ConsensusParams = &cmtproto.ConsensusParams{Block: &cmtproto.BlockParams{MaxBytes: 22020096, MaxGas: -1}}
	if _, err := a.InitChain(context.Background(), req); err == nil || !strings.Contains(err.Error(), "block.max_bytes") {
		t.Fatalf("InitChain with 21 MiB blocks: %v", err)
	}
	req.ConsensusParams.Block.MaxBytes = 4 << 20
	if _, err := a.InitChain(context.Background(), req); err != nil {
		t.Fatalf("InitChain with 4 MiB blocks: %v", err)
	}
}
