package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	rpchttp "github.com/cometbft/cometbft/rpc/client/http"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/client/lightproof"
)

// TestProveAgainstNode runs `query … --prove` and `weights --verify`
// against a real node past its first epoch. The light client needs a
// witness: the node's own RPC address is given as one (a second RPC client
// of the same node, which agrees with the primary by construction).
func TestProveAgainstNode(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a CometBFT node")
	}
	_, node, n := initStarted(t, "prove-1", "--timeout-commit", "100ms")
	n.waitHeight(t, node, 12) // past the first epoch (10 blocks)
	rpc, err := rpchttp.New(node, "/websocket")
	if err != nil {
		t.Fatal(err)
	}
	h := int64(2)
	commit, err := rpc.Commit(context.Background(), &h)
	if err != nil {
		t.Fatal(err)
	}
	trust := []string{"--node", node, "--witness", node, "--trust-height", "2", "--trust-hash", hex.EncodeToString(commit.SignedHeader.Hash())}

	t.Run("query epoch", func(t *testing.T) {
		code, out, errOut := runCmd(t, append([]string{"query", "epoch", "latest", "--prove"}, trust...)...)
		if code != 0 {
			t.Fatalf("code %d: %s", code, errOut)
		}
		var rec struct {
			Record wire.EpochResultView `json:"record"`
			Proven lightproof.Report    `json:"proven"`
		}
		if err := json.Unmarshal([]byte(out), &rec); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		var ep wire.EpochView
		queryJSON(t, node, &ep, "epoch", "latest")
		p := rec.Proven
		if rec.Record.Number != ep.Epoch.Number || len(rec.Record.U16) != len(ep.Epoch.U16) || p.Store != wire.StoreEpoch ||
			p.Key != hex.EncodeToString(wire.EpochKey(ep.Epoch.Number)) || p.Header.Height != p.StateHeight+1 || !p.TwoThirds || p.TrustedOnFirstUse {
			t.Fatalf("proven epoch %+v, node's %+v", rec, ep.Epoch)
		}
		blk, err := rpc.Block(context.Background(), &p.Header.Height)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.EqualFold(blk.Block.AppHash.String(), p.Header.AppHash) || strings.Contains(errOut, "warning") {
			t.Fatalf("app hash %s, block %d has %s; stderr %q", p.Header.AppHash, p.Header.Height, blk.Block.AppHash, errOut)
		}
	})
	t.Run("trusted on first use", func(t *testing.T) {
		code, out, errOut := runCmd(t, "query", "epoch", "1", "--prove", "--node", node, "--witness", node, "-o", "text")
		if code != 0 || !strings.Contains(errOut, "warning: trusted on first use") || !strings.Contains(out, "trusted_on_first_use: true") {
			t.Fatalf("code %d\nstdout %s\nstderr %s", code, out, errOut)
		}
	})
	t.Run("weights", func(t *testing.T) {
		code, out, errOut := runCmd(t, append([]string{"weights", "--verify", "--netuid", "3"}, trust...)...)
		if code != 0 {
			t.Fatalf("code %d: %s", code, errOut)
		}
		var w lightproof.VerifiedWeights
		if err := json.Unmarshal([]byte(out), &w); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		// The same vector as plain weights prints, read from the latest
		// provable state (plain weights reads the epoch's own).
		plain := cli(t, "weights", "--node", node, "--epoch", strconv.FormatUint(w.Epoch, 10), "--netuid", "3")
		var want client.ParentWeights
		if err := json.Unmarshal([]byte(plain), &want); err != nil {
			t.Fatal(err)
		}
		if w.Epoch < 1 || len(w.UIDs) == 0 || *w.NetUID != 3 || !w.Proven.TwoThirds || w.Proven.SignedPower != w.Proven.TotalPower ||
			w.Height != w.Proven.StateHeight || w.AppHash != w.Proven.Header.AppHash || w.ScoreDigest != "" {
			t.Fatalf("verified weights %+v", w)
		}
		if fmt.Sprint(w.UIDs, w.Weights, w.EpochHeight) != fmt.Sprint(want.UIDs, want.Weights, want.EpochHeight) {
			t.Fatalf("verified %+v, unverified %+v", w.ParentWeights, want)
		}
	})
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no witness", []string{"weights", "--verify", "--node", node}, "--witness: required"},
		{"wrong trust hash", []string{"weights", "--verify", "--node", node, "--witness", node, "--trust-height", "2", "--trust-hash", strings.Repeat("ab", 32)},
			"trust root at height 2 refused"},
		{"hash without height", []string{"query", "epoch", "1", "--prove", "--node", node, "--witness", node, "--trust-hash", strings.Repeat("ab", 32)},
			"--trust-height: required"},
		{"short hash", []string{"query", "epoch", "1", "--prove", "--node", node, "--witness", node, "--trust-height", "2", "--trust-hash", "abcd"},
			"--trust-hash: 2 bytes"},
		{"not provable", []string{"query", "status", "--prove", "--node", node, "--witness", node}, "not a provable query"},
		{"window without track", []string{"query", "window", "0", "--prove", "--node", node, "--witness", node}, "add workflow or arena"},
		{"witness without prove", []string{"query", "epoch", "1", "--node", node, "--witness", node}, "only with --prove"},
		{"witness without verify", []string{"weights", "--node", node, "--witness", node}, "only with --verify"},
		{"height with verify", []string{"weights", "--verify", "--height", "3", "--node", node, "--witness", node}, "--height: not with --verify"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runCmd(t, c.args...)
			t.Log(errOut)
			if code == 0 || out != "" || !strings.Contains(errOut, c.want) {
				t.Fatalf("code %d, stdout %q, stderr %q; want an error with %q", code, out, errOut, c.want)
			}
		})
	}
}
