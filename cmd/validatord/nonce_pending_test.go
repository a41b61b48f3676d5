package main

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/testnode"
)

// TestTxBackToBackWithoutWait: two `validatord tx` runs from one key, one
// right after the other and without --wait, while the first is still in
// the mempool (a block every two seconds, both sent just after one): the
// second signs at the node's pending nonce (account/<hex>/pending), so
// both are committed, in order. Before, both read the committed nonce and
// the second was refused as nonce_used. A stale --nonce is refused with
// what to do: the next nonce, --nonce, --wait.
func TestTxBackToBackWithoutWait(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a CometBFT node")
	}
	home := filepath.Join(t.TempDir(), "home")
	node, p2p := freeAddr(t), freeAddr(t)
	cli(t, "init", "--home", home, "--chain-id", "nonce-1", "--rpc-laddr", node, "--p2p-laddr", p2p, "--timeout-commit", "2s")
	n := startNode(t, home)
	n.waitHeight(t, node, 1)
	c, err := client.Dial(node)
	if err != nil {
		t.Fatal(err)
	}
	ctx := testnode.Ctx(t)
	h, err := c.Height(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n.waitHeight(t, node, h+1)
	post := []string{"tx", "post-task", "workflow", "--from", "validator", "--home", home, "--node", node, "--total-steps", "4",
		"--max-budget", "2", "--max-latency-seconds", "60", "--submission-blocks", "100", "--report-blocks", "100"}
	var hashes []string
	for i := range 2 {
		post[10] = strconv.Itoa(4 + i) // --total-steps: two different transactions
		code, out, errOut := runCmd(t, post...)
		var res client.TxResult
		if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 || res.Code != 0 {
			t.Fatalf("tx %d without --wait: exit %d, stdout %q, stderr %q", i, code, out, errOut)
		}
		hashes = append(hashes, res.Hash)
	}
	for i, hash := range hashes {
		res, err := c.WaitTx(ctx, hash, time.Minute)
		if err != nil || res.Height <= 0 {
			t.Fatalf("tx %d: %+v, %v", i, res, err)
		}
		if id, err := res.AttrU64(wire.EventTaskPosted, "task_id"); err != nil || id != uint64(i) {
			t.Fatalf("tx %d: task %d, %v", i, id, err)
		}
	}

	stale := append([]string{}, post...)
	stale[10] = "9" // --total-steps: other bytes than the committed tx at nonce 0
	code, _, errOut := runCmd(t, append(stale, "--nonce", "0")...)
	for _, want := range []string{"code 7", "the next nonce is 2", "--nonce 2", "--wait"} {
		if code == 0 || !strings.Contains(errOut, want) {
			t.Fatalf("stale --nonce 0: exit %d, stderr %q; want it to say %q", code, errOut, want)
		}
	}
}
