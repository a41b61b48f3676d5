//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	cmtjson "github.com/cometbft/cometbft/libs/json"
	rpcclient "github.com/cometbft/cometbft/rpc/client"
	rpchttp "github.com/cometbft/cometbft/rpc/client/http"
	ctypes "github.com/cometbft/cometbft/rpc/core/types"
	"github.com/cosmos/gogoproto/proto"

	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// proofFigures are the figures of the light proxy scenario.
type proofFigures struct {
	TrustedHeight int64          `json:"trusted_height"`
	Proven        []provenFigure `json:"proven"`
	Refused       []string       `json:"refused"`
	Seconds       string         `json:"time_to_scored_submission"`
	CLI           []string       `json:"cli_refusals"`
}

// provenFigure is one answer the honest proxy verified.
type provenFigure struct {
	Store      string `json:"store"`
	Key        string `json:"key"`
	Height     int64  `json:"height"`
	ValueBytes int    `json:"value_bytes"`
	ProofBytes int    `json:"proof_bytes"`
}

// TestLightProxyVerifiesProofs: the app hash commits to the provable stores (docs/queries.md,
// "Proven queries with the stock light proxy"), so the stock `cometbft light` proxy (built from
// go.mod's CometBFT: make cometbft) verifies our abci_query answers as it would a Cosmos SDK
// chain's. Four validators run a few loadgen rounds until a workflow submission is scored; node3
// runs bin/validatord-liar, the test build of validatord under the build tag liar
// (cmd/validatord/liar.go), which flips one byte of every /store/<name>/key value and sends the
// honest proof with it. Through a proxy whose primary is node0, the latest epoch, the scored
// submission (its receipt) and the miner's workflow window are answered and verified; the same
// answers, checked in Go by wire.VerifyProof against the app hash of header h+1 (read through
// the proxy, so light-verified), verify, and node3's do not. Through a proxy whose primary is
// node3 every one of those queries is refused with the proxy's "verify value proof" error. The
// project's own client agrees: `validatord query … --prove` and `weights --verify` prove node0's
// records and exit 1 on node3's ("not proven").
func TestLightProxyVerifiesProofs(t *testing.T) {
	const liarNode = 3
	port := basePort + 900
	nw := newNetwork(t, 4, port, "200ms")
	for i := 0; i < liarNode; i++ {
		nw.start(i)
	}
	nw.startBinary(liarNode, bin("validatord-liar"))
	if err := nw.waitAll(2, time.Minute); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	out := filepath.Join(nw.dir, "load.jsonl")
	load := nw.ps.start(t, "loadgen", filepath.Join(nw.dir, "loadgen.log"), nil, bin("loadgen"), "rounds",
		"--testnet", nw.dir, "--nodes", join(nw.rpcs[:liarNode]), "--duration", "10s", "--rate", "10",
		"--miners", "2", "--out", out)
	sub := waitScored(t, nw, out, load, 3*time.Minute)
	fig := proofFigures{Seconds: time.Since(began).Round(100 * time.Millisecond).String()}
	_ = load.stop(10 * time.Second) // one scored submission is all the scenario needs
	t.Logf("submission %d of uid %d scored after %s", sub.ID, sub.UID, fig.Seconds)
	epoch := latestEpoch(t, nw)
	// A query without a height is answered at the last committed height − 1: two more blocks
	// and that state holds the epoch and the score seen at the last committed one.
	now, err := nw.height(0)
	if err != nil {
		t.Fatal(err)
	}
	if err := nw.waitHeight(0, now+2, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	workflow, _ := wire.WindowTrack("workflow")
	queries := []struct {
		store string
		key   []byte
		check func(value []byte) error
	}{
		{wire.StoreEpoch, wire.EpochKey(epoch), func(v []byte) error {
			var e subnetv1.Epoch
			if err := proto.Unmarshal(v, &e); err != nil || e.Number != epoch {
				return fmt.Errorf("not epoch %d: %+v (%v)", epoch, &e, err)
			}
			return nil
		}},
		{wire.StoreSubmission, wire.SubmissionKey(sub.ID), func(v []byte) error {
			var s subnetv1.Submission
			if err := proto.Unmarshal(v, &s); err != nil || s.Id != sub.ID || s.Status != "scored" || s.Receipt == nil {
				return fmt.Errorf("not scored submission %d with its receipt: %+v (%v)", sub.ID, &s, err)
			}
			return nil
		}},
		{wire.StoreWindow, wire.WindowKey(workflow, sub.UID), func(v []byte) error {
			var w subnetv1.Window
			if err := proto.Unmarshal(v, &w); err != nil || w.TasksSeen == 0 {
				return fmt.Errorf("not a window with a scored task: %+v (%v)", &w, err)
			}
			return nil
		}},
	}

	// The proxies trust node0's header at height 2, as an operator trusts a hash read from a
	// node of its own.
	ctx := context.Background()
	chainID, trusted := trustedHeader(t, nw, 2)
	fig.TrustedHeight = 2
	honest := startLightProxy(t, nw, "light-honest", chainID, nw.rpcs[0], nw.rpcs[1], 2, trusted, port+50)
	lying := startLightProxy(t, nw, "light-liar", chainID, nw.rpcs[liarNode], nw.rpcs[1], 2, trusted, port+51)
	honestRPC, err := rpchttp.New(honest, "/websocket")
	if err != nil {
		t.Fatal(err)
	}

	for _, q := range queries {
		path := wire.StoreQueryPath(q.store)
		// Each proxy checks the header after the answer's height with its witness (node1),
		// and when the witness has not committed it yet, CometBFT's detector sleeps
		// 2 × max clock drift + max block lag (30 s) before it asks again: a primary one block
		// ahead of the witness made the liar's proxy answer after 30 s in CI. So the proxies
		// are asked at a height whose next header every node already has.
		tip, err := nw.height(0)
		if err != nil {
			t.Fatal(err)
		}
		at := tip - 1
		for _, i := range []int{1, liarNode} {
			if err := nw.waitHeight(i, tip, 30*time.Second); err != nil {
				t.Fatal(err)
			}
		}
		asked := time.Now()
		res, refusal, body, err := proxyQuery(honest, path, q.key, at)
		if err != nil || refusal != "" {
			t.Fatalf("honest proxy, %s %x: %v %s", path, q.key, err, refusal)
		}
		t.Logf("honest proxy's answer after %s: %s", time.Since(asked).Round(time.Millisecond), body)
		r := res.Response
		if r.Code != 0 || !bytes.Equal(r.Key, q.key) || r.Height != at {
			t.Fatalf("honest proxy, %s %x: code %d (%s), key %x, height %d (asked at %d)", path, q.key, r.Code, r.Log, r.Key, r.Height, at)
		}
		if err := q.check(r.Value); err != nil {
			t.Fatalf("honest proxy, %s: %v", path, err)
		}
		fig.Proven = append(fig.Proven, provenFigure{Store: q.store, Key: hex.EncodeToString(q.key), Height: r.Height,
			ValueBytes: len(r.Value), ProofBytes: r.ProofOps.Size()})
		t.Logf("proxy verified %s %x at height %d: value %d bytes, proof %d bytes (%d ops)", path, q.key, r.Height,
			len(r.Value), r.ProofOps.Size(), len(r.ProofOps.Ops))

		// The same height straight from node0 and from the liar, checked in Go against the
		// app hash of header h+1 as the proxy verified it.
		next := r.Height + 1
		cm, err := honestRPC.Commit(ctx, &next)
		if err != nil {
			t.Fatalf("header %d through the proxy: %v", next, err)
		}
		appHash := cm.SignedHeader.Header.AppHash
		good := nodeQuery(t, nw, 0, path, q.key, r.Height)
		if !bytes.Equal(good.Value, r.Value) {
			t.Fatalf("%s at %d: node0 answers %x, the proxy passed %x", path, r.Height, good.Value, r.Value)
		}
		if err := wire.VerifyProof(appHash, q.store, q.key, good.Value, good.ProofOps); err != nil {
			t.Fatalf("node0's %s at %d against header %d's app hash %X: %v", path, r.Height, next, appHash, err)
		}
		if err := nw.waitHeight(liarNode, r.Height, 30*time.Second); err != nil {
			t.Fatal(err)
		}
		bad := nodeQuery(t, nw, liarNode, path, q.key, r.Height)
		if flipped := differingBytes(bad.Value, good.Value); flipped != 1 {
			t.Fatalf("the liar's %s at %d differs from node0's in %d bytes, want 1", path, r.Height, flipped)
		}
		err = wire.VerifyProof(appHash, q.store, q.key, bad.Value, bad.ProofOps)
		if !errors.Is(err, wire.ErrProof) {
			t.Fatalf("the liar's %s at %d verified against header %d: %v", path, r.Height, next, err)
		}

		// The proxy in front of the liar refuses the answer.
		asked = time.Now()
		_, refusal, body, err = proxyQuery(lying, path, q.key, at)
		if err != nil {
			t.Fatalf("the liar's proxy, %s %x, after %s: %v", path, q.key, time.Since(asked).Round(time.Millisecond), err)
		}
		t.Logf("liar's proxy's answer after %s: %s", time.Since(asked).Round(time.Millisecond), body)
		if !strings.Contains(refusal, "verify value proof") {
			t.Fatalf("the liar's proxy on %s %x: refusal %q, want the proxy's proof failure (verify value proof)", path, q.key, refusal)
		}
		fig.Refused = append(fig.Refused, refusal)
		t.Logf("proxy in front of the liar refused %s %x: %s", path, q.key, refusal)
	}

	// The project's own light client (client/lightproof, through validatord query --prove and
	// weights --verify) takes node0's records and refuses the liar's.
	fig.CLI = checkCLI(t, nw, liarNode, trusted, []cliQuery{
		{wire.StoreEpoch, []string{"epoch", fmt.Sprint(epoch)}},
		{wire.StoreSubmission, []string{"submission", fmt.Sprint(sub.ID)}},
		{wire.StoreWindow, []string{"window", fmt.Sprint(sub.UID), "workflow"}},
	}, epoch)

	// An absent key is code 2 (not found), with no value to prove.
	absent := nodeQueryCode(t, nw, 0, wire.StoreQueryPath(wire.StoreEpoch), wire.EpochKey(epoch+1_000_000))
	if absent != wire.QueryNotFound {
		t.Fatalf("an absent epoch: code %d, want %d", absent, wire.QueryNotFound)
	}
	report(t, "light_proxy_proofs", fig)
}

// scoredSub is the submission the scenario proves.
type scoredSub struct {
	ID  uint64
	UID uint32
}

// waitScored waits until one of the workflow submissions loadgen committed (its --out file) is
// scored on node0.
func waitScored(t *testing.T, nw *network, out string, load *proc, d time.Duration) scoredSub {
	t.Helper()
	deadline := time.Now().Add(d)
	status := map[uint64]string{} // the last status seen of each submission
	for time.Now().Before(deadline) {
		recs, _ := loadRecords(out) // a line being written is read next time
		for _, r := range recs {
			if r.Kind != "commit/workflow" {
				continue
			}
			bz, err := querySub(nw, 0, r.SubmissionID)
			if err != nil {
				continue
			}
			var v wire.SubmissionView
			if err := json.Unmarshal(bz, &v); err != nil {
				t.Fatalf("submission/%d: %v", r.SubmissionID, err)
			}
			status[v.ID] = v.Status
			if v.Status == "scored" {
				return scoredSub{ID: v.ID, UID: v.UID}
			}
		}
		if !load.running() && load.exitCode() != 0 {
			t.Fatalf("loadgen exited %d (see %s)", load.exitCode(), filepath.Join(nw.dir, "loadgen.log"))
		}
		time.Sleep(time.Second)
	}
	t.Fatalf("no workflow submission scored after %s (statuses by id: %v)", d, status)
	return scoredSub{}
}

// latestEpoch is the number of node0's latest epoch.
func latestEpoch(t *testing.T, nw *network) uint64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res, err := nw.clients[0].ABCIQuery(ctx, "epoch/latest", nil)
	if err != nil || res.Response.Code != 0 {
		t.Fatalf("epoch/latest: %v %+v", err, res)
	}
	var v wire.EpochView
	if err := json.Unmarshal(res.Response.Value, &v); err != nil || v.Epoch == nil {
		t.Fatalf("epoch/latest: %s (%v)", res.Response.Value, err)
	}
	return v.Epoch.Number
}

// trustedHeader is the chain id and the hash (hex) of node0's block at height h.
func trustedHeader(t *testing.T, nw *network, h int64) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	blk, err := nw.clients[0].Block(ctx, &h)
	if err != nil {
		t.Fatal(err)
	}
	return blk.Block.ChainID, blk.BlockID.Hash.String()
}

// startLightProxy runs `cometbft light` (bin/cometbft) on 127.0.0.1:port with primary and one
// witness, trusting the header of height h with hash; it returns the proxy's URL once it answers.
func startLightProxy(t *testing.T, nw *network, name, chainID, primary, witness string, h int64, hash string, port int) string {
	t.Helper()
	home := filepath.Join(nw.dir, name)
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	p := nw.ps.start(t, name, filepath.Join(nw.dir, name+".log"), nil, bin("cometbft"), "light", chainID,
		"--primary", primary, "--witnesses", witness, "--height", fmt.Sprint(h), "--hash", hash,
		"--laddr", fmt.Sprintf("tcp://127.0.0.1:%d", port), "--home-dir", home)
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(url + "/health"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return url
			}
		}
		if !p.running() {
			t.Fatalf("%s exited (code %d): see %s", name, p.exitCode(), filepath.Join(nw.dir, name+".log"))
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("%s does not answer on %s after 30s", name, url)
	return ""
}

// proxyQuery asks a proxy, as docs/queries.md's curl does, for key under path at height h:
// the answer, or the proxy's refusal (the JSON-RPC error's message and data), and the JSON it
// sent.
func proxyQuery(url, path string, key []byte, h int64) (*ctypes.ResultABCIQuery, string, []byte, error) {
	q := fmt.Sprintf("%s/abci_query?path=%%22%s%%22&data=0x%X&prove=true&height=%d", url, path, key, h)
	// The proxy's first answer may verify dozens of headers from the trusted height, and
	// CometBFT's light provider retries an RPC that timed out with a backoff of 0.5 s, 2 s,
	// 4.5 s, 8 s, 12.5 s. The scenario checks what the proxy answers, not how fast, so it
	// waits long.
	c := http.Client{Timeout: 2 * time.Minute}
	resp, err := c.Get(q)
	if err != nil {
		return nil, "", nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, "", nil, err
	}
	var env struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
			Data    string `json:"data"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, "", body, fmt.Errorf("%s: %w: %s", q, err, body)
	}
	if env.Error != nil {
		return nil, env.Error.Message + ": " + env.Error.Data, body, nil
	}
	var res ctypes.ResultABCIQuery
	if err := cmtjson.Unmarshal(env.Result, &res); err != nil {
		return nil, "", body, fmt.Errorf("%s: %w: %s", q, err, body)
	}
	return &res, "", body, nil
}

// nodeQuery asks node i for a proven answer of key under path at height h; it must be found.
func nodeQuery(t *testing.T, nw *network, i int, path string, key []byte, h int64) abcitypes.ResponseQuery {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res, err := nw.clients[i].ABCIQueryWithOptions(ctx, path, key, rpcclient.ABCIQueryOptions{Height: h, Prove: true})
	if err != nil {
		t.Fatalf("node%d %s %x at %d: %v", i, path, key, h, err)
	}
	r := res.Response
	if r.Code != 0 || r.Height != h || r.ProofOps == nil {
		t.Fatalf("node%d %s %x at %d: code %d (%s), height %d, proof %v", i, path, key, h, r.Code, r.Log, r.Height, r.ProofOps)
	}
	return r
}

// nodeQueryCode is node i's answer code for key under path at the latest provable height.
func nodeQueryCode(t *testing.T, nw *network, i int, path string, key []byte) uint32 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res, err := nw.clients[i].ABCIQueryWithOptions(ctx, path, key, rpcclient.ABCIQueryOptions{Prove: true})
	if err != nil {
		t.Fatalf("node%d %s %x: %v", i, path, key, err)
	}
	return res.Response.Code
}

// cliQuery is a provable record as `validatord query` names it.
type cliQuery struct {
	store string
	args  []string
}

// checkCLI runs `validatord query … --prove` on each record and `validatord weights --verify` on
// the epoch against node0 (each must be proven under a header signed by more than 2/3 of the
// power) and against the liar (each must exit 1 saying the record is not proven, weights with
// nothing on stdout); it returns the liar's refusals.
func checkCLI(t *testing.T, nw *network, liarNode int, trustHash string, queries []cliQuery, epoch uint64) []string {
	t.Helper()
	trust := []string{"--witness", nw.rpcs[1], "--trust-height", "2", "--trust-hash", trustHash}
	type proven struct {
		Proven struct {
			Store       string `json:"store"`
			StateHeight int64  `json:"state_height"`
			TwoThirds   bool   `json:"two_thirds"`
		} `json:"proven"`
	}
	var refusals []string
	for _, q := range queries {
		args := append(append(append([]string{"query"}, q.args...), "--prove", "--node", nw.rpcs[0]), trust...)
		out, err := run(t, time.Minute, nil, bin("validatord"), args...)
		if err != nil {
			t.Fatalf("validatord %s against node0: %v", strings.Join(args, " "), err)
		}
		var p proven
		if err := json.Unmarshal(out, &p); err != nil || p.Proven.Store != q.store || !p.Proven.TwoThirds {
			t.Fatalf("validatord %s: not a record of %s proven under 2/3 of the power (%v): %s", strings.Join(args, " "), q.store, err, out)
		}
		t.Logf("validatord query %s --prove: proven at state height %d", strings.Join(q.args, " "), p.Proven.StateHeight)
		args[len(q.args)+3] = nw.rpcs[liarNode] // --node's value
		_, err = run(t, time.Minute, nil, bin("validatord"), args...)
		if err == nil || !strings.Contains(err.Error(), "not proven") {
			t.Fatalf("validatord %s against the liar: %v, want exit 1 saying not proven", strings.Join(args, " "), err)
		}
		refusals = append(refusals, lastLine(err.Error()))
		t.Logf("validatord query %s --prove against the liar: %s", strings.Join(q.args, " "), lastLine(err.Error()))
	}
	args := append([]string{"weights", "--verify", "--epoch", fmt.Sprint(epoch), "--node", nw.rpcs[0]}, trust...)
	out, err := run(t, time.Minute, nil, bin("validatord"), args...)
	var p proven
	if err != nil || json.Unmarshal(out, &p) != nil || p.Proven.Store != wire.StoreEpoch || !p.Proven.TwoThirds {
		t.Fatalf("validatord %s against node0: %v: %s", strings.Join(args, " "), err, out)
	}
	args[5] = nw.rpcs[liarNode]
	out, err = run(t, time.Minute, nil, bin("validatord"), args...)
	if err == nil || len(bytes.TrimSpace(out)) != 0 || !strings.Contains(err.Error(), "not proven") {
		t.Fatalf("validatord %s against the liar: %v, stdout %q; want exit 1, nothing on stdout, not proven", strings.Join(args, " "), err, out)
	}
	return append(refusals, lastLine(err.Error()))
}

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// differingBytes counts the positions where a and b differ (a length difference counts each
// missing byte).
func differingBytes(a, b []byte) int {
	n := max(len(a), len(b)) - min(len(a), len(b))
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}
