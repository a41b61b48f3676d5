package app

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/wire"
)

// TestEmptyLeaderboardSaysWhy: a board with no miner says why (the
// gas board stayed empty with no word), and every board says what it ranks.
func TestEmptyLeaderboardSaysWhy(t *testing.T) {
	n := newNode(t, t.TempDir(), testGenesis(2))
	n.block()
	for tr, want := range map[string]string{"workflow": "report deadline", "arena": "report deadline", "gas": "oracle gas"} {
		resp, err := n.app.Query(context.Background(), &abcitypes.RequestQuery{Path: "leaderboard/" + tr})
		if err != nil || resp.Code != wire.QueryOK {
			t.Fatalf("%s: %+v %v", tr, resp, err)
		}
		var v wire.LeaderboardView
		if err := json.Unmarshal(resp.Value, &v); err != nil {
			t.Fatal(err)
		}
		if len(v.Miners) != 0 || v.Empty == nil || !strings.Contains(*v.Empty, want) || !strings.Contains(v.Ranks, tr+" aggregate") {
			t.Fatalf("%s: empty %v, ranks %q; want a reason naming %q", tr, v.Empty, v.Ranks, want)
		}
	}
}
