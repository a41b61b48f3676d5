package main

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	cfg "github.com/cometbft/cometbft/config"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/testnode"
)

// TestTxWaitResendsALostTx: `validatord tx … --wait` whose transaction
// CheckTx took and the node then lost (its mempool flushed with CometBFT's
// unsafe_flush_mempool between the broadcast and the next block, as a
// restart loses it) does not time out: the key's client.Signer sees the
// transaction in no block DefaultLostAfter blocks later, sends the same
// bytes again, and the command prints their block's result, saying on
// stderr what it did. Before, --wait was broadcast_tx_commit, which
// waited for a block that never held the transaction and failed.
func TestTxWaitResendsALostTx(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a CometBFT node")
	}
	home := filepath.Join(t.TempDir(), "home")
	node := freeAddr(t)
	cli(t, "init", "--home", home, "--chain-id", "resend-1", "--rpc-laddr", node, "--p2p-laddr", freeAddr(t), "--timeout-commit", "1s")
	editConfig(t, home, func(c *cfg.Config) { c.RPC.Unsafe = true })
	n := startNode(t, home)
	n.waitHeight(t, node, 2)
	c, err := client.Dial(node)
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + strings.TrimPrefix(node, "tcp://")
	pending := func() int {
		resp, err := http.Get(base + "/num_unconfirmed_txs")
		if err != nil {
			return -1
		}
		defer resp.Body.Close()
		var v struct {
			Result struct {
				N string `json:"n_txs"`
			} `json:"result"`
		}
		if json.NewDecoder(resp.Body).Decode(&v) != nil {
			return -1
		}
		k, _ := strconv.Atoi(v.Result.N)
		return k
	}
	// The flush must come before the proposer reaps the transaction; one
	// that a block took first (a few ms of every second) is sent again.
	for attempt := range 4 {
		type result struct {
			code     int
			out, err string
		}
		done := make(chan result, 1)
		go func() {
			code, out, errOut := runCmd(t, "tx", "post-task", "workflow", "--from", "validator", "--home", home, "--node", node,
				"--total-steps", strconv.Itoa(4+attempt), "--max-budget", "2", "--max-latency-seconds", "60",
				"--submission-blocks", "100", "--report-blocks", "100", "--wait")
			done <- result{code, out, errOut}
		}()
		flushed := false
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && !flushed; {
			if pending() > 0 {
				resp, err := http.Get(base + "/unsafe_flush_mempool")
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				flushed = true
			}
			time.Sleep(5 * time.Millisecond)
		}
		r := <-done
		var res client.TxResult
		if err := json.Unmarshal([]byte(r.out), &res); err != nil || r.code != 0 || res.Code != 0 || res.Height <= 0 {
			t.Fatalf("tx --wait after the flush: exit %d, stdout %q, stderr %q", r.code, r.out, r.err)
		}
		if !flushed || !strings.Contains(r.err, "sent again") {
			t.Logf("attempt %d: a block took the transaction before the flush (stderr %q); again", attempt, r.err)
			continue
		}
		if !strings.Contains(r.err, "tx "+res.Hash+": taken by the node but in no block") {
			t.Fatalf("stderr %q does not name the resent transaction %s", r.err, res.Hash)
		}
		got, err := c.Tx(testnode.Ctx(t), res.Hash)
		if err != nil || got.Height != res.Height {
			t.Fatalf("/tx of %s: %+v, %v; the command printed height %d", res.Hash, got, err, res.Height)
		}
		if _, err := got.AttrU64(wire.EventTaskPosted, "task_id"); err != nil {
			t.Fatalf("the resent post made no task: %v", err)
		}
		return
	}
	t.Fatal("every attempt's transaction was in a block before the flush")
}
