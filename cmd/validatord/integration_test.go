package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/testnode"
	"github.com/scoringsubnet/validatord/node/appconfig"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// TestNodeEndToEnd runs the real thing: init a home in a temp dir, start a
// CometBFT node with the app in-process on free loopback ports, send signed
// transactions through the RPC with the tx command (miners commit with `tx
// submit`, the salt kept in the home, and reveal with `tx submit --wait` or
// `tx reveal`), and read the scores back through /abci_query with the query
// command. Then stop (as on SIGINT), restart on the same home and read the
// same score again.
func TestNodeEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a CometBFT node")
	}
	home := filepath.Join(t.TempDir(), "home")
	node, p2p := freeAddr(t), freeAddr(t)
	cli(t, "init", "--home", home, "--chain-id", "itest-1", "--rpc-laddr", node, "--p2p-laddr", p2p, "--timeout-commit", "100ms", "--registration-difficulty", "16")
	n := startNode(t, home)
	n.waitHeight(t, node, 1)
	for _, k := range []string{"alice", "bob"} {
		cli(t, "keys", "add", k, "--home", home)
	}
	tx := func(typ, key string, args ...string) string { return mustTx(t, home, node, typ, key, args...) }
	uidA := tx(wire.EventMinerRegistered, "uid", "register-miner", "--from", "alice")
	uidB := tx(wire.EventMinerRegistered, "uid", "register-miner", "--from", "bob")
	if uidA == uidB {
		t.Fatalf("both miners got uid %s", uidA)
	}

	// Workflow: `submit --wait` commits, waits for the reveal window and
	// reveals; reports come after the window; the score read back is the
	// seed formula on the reported inputs.
	task := tx(wire.EventTaskPosted, "task_id", "post-task", "workflow", "--from", "validator", "--total-steps", "4",
		"--max-budget", "2", "--max-latency-seconds", "60", "--submission-blocks", "10", "--report-blocks", "500")
	sres := mustSubmit(t, home, node, true, "workflow", "--from", "alice", "--task-id", task, "--artifact-hash", hash32("alice workflow"))
	sub := attr(t, sres.Commit, wire.EventSubmissionAdded, "submission_id")
	var tv struct {
		SubmitDeadline int64 `json:"submit_deadline"`
		RevealDeadline int64 `json:"reveal_deadline"`
	}
	queryJSON(t, node, &tv, "task", task)
	if sres.Reveal == nil || sres.Pending != "" || sres.Commit.Height > tv.SubmitDeadline || sres.Reveal.Height <= tv.SubmitDeadline ||
		sres.Reveal.Height > tv.RevealDeadline || attr(t, *sres.Reveal, wire.EventSubmissionRevealed, "submission_id") != sub {
		t.Fatalf("submit --wait: %+v; task %+v", sres, tv)
	}
	n.waitHeight(t, node, tv.RevealDeadline)
	report := []string{"report", "workflow", "--from", "validator", "--submission-id", sub, "--output-quality", "0.9",
		"--steps-completed", "3", "--cost", "0.5", "--latency-seconds", "30", "--retries", "2", "--declared-retry-budget", "1", "--timeouts", "1", "--hard-failures", "0"}
	evScore := tx(wire.EventSubmissionScored, "score", report...)
	want, err := scoring.ScoreWorkflow(genesis.DefaultGenesis().Workflow, scoring.WorkflowInput{
		OutputQuality: dec("0.9"), StepsCompleted: 3, TotalSteps: 4, Cost: dec("0.5"), MaxBudget: dec("2"),
		LatencySeconds: dec("30"), MaxLatencySeconds: dec("60"), Retries: 2, DeclaredRetryBudget: 1, Timeouts: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	var got submissionView
	queryJSON(t, node, &got, "submission", sub)
	if got.Status != "scored" || got.Receipt.Score != scoring.Format(want.Score) || evScore != got.Receipt.Score {
		t.Fatalf("submission %s: status %q receipt score %q event score %q, want scored %s", sub, got.Status, got.Receipt.Score, evScore, scoring.Format(want.Score))
	}
	var lb struct {
		Miners []struct {
			UID   uint32 `json:"uid"`
			Score string `json:"score"`
		} `json:"miners"`
	}
	queryJSON(t, node, &lb, "leaderboard", "workflow")
	if len(lb.Miners) != 1 || strconv.Itoa(int(lb.Miners[0].UID)) != uidA {
		t.Fatalf("workflow leaderboard %+v, want only uid %s", lb.Miners, uidA)
	}

	// Refusals come back as a result with the app's code and exit status 1;
	// a refused commit leaves no pending reveal behind.
	refusals := []struct {
		name string
		args []string
		code uint32
	}{
		{"report on a scored submission", report, wire.CodeSubmissionFinal},
		{"miner reports", append(append([]string{}, report[:3]...), append([]string{"bob"}, report[4:]...)...), wire.CodeNotValidator},
		{"unknown task", []string{"submit", "workflow", "--from", "bob", "--task-id", "999", "--artifact-hash", hash32("x")}, wire.CodeUnknownTask},
		{"stale nonce", []string{"submit", "workflow", "--from", "alice", "--task-id", task, "--artifact-hash", hash32("replay"), "--nonce", "0"}, wire.CodeNonceUsed},
		{"wrong chain id", []string{"register-miner", "--from", "alice", "--chain-id", "other-chain"}, wire.CodeWrongChainID},
		{"validator registers as a miner", []string{"register-miner", "--from", "validator"}, wire.CodeValidatorKey},
	}
	for _, r := range refusals {
		var res client.TxResult
		var code int
		var errOut string
		if r.args[0] == "submit" {
			var sr client.SubmitResult
			sr, code, errOut = cliSubmit(t, home, node, true, r.args[1:]...)
			res = sr.Commit
		} else {
			res, code, errOut = cliTx(t, home, node, r.args...)
		}
		// register-miner's progress lines come before the one error line.
		if r.args[0] == "register-miner" {
			if i := strings.LastIndex(strings.TrimSuffix(errOut, "\n"), "\n"); i >= 0 && strings.HasPrefix(errOut, "register-miner: ") {
				errOut = errOut[i+1:]
			}
		}
		if code != 1 || res.Code != r.code || !strings.Contains(errOut, fmt.Sprintf("code %d", r.code)) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%s: exit %d, result code %d (%s), stderr %q; want exit 1 and code %d", r.name, code, res.Code, res.Log, errOut, r.code)
		}
	}
	var files []string
	err = filepath.WalkDir(filepath.Join(home, "reveals", "itest-1"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, path)
		}
		return err
	})
	if err != nil || len(files) != 0 {
		t.Fatalf("pending reveals after the refused commits: %v, %v", files, err)
	}

	// Arena: `submit` only commits, the salt kept in the home (0600); `tx
	// reveal` refuses, sending nothing, before the window, and with --wait
	// reveals once it is open. A run is scored 0..100 against the task's
	// baseline.
	arena := genesis.DefaultGenesis().Arena
	postArena := func(blocks string) string {
		return tx(wire.EventTaskPosted, "task_id", "post-task", "arena", "--from", "validator", "--category", arena.Categories[0].Name,
			"--difficulty", arena.Difficulties[0].Name, "--criteria-total", "10", "--submission-blocks", blocks, "--report-blocks", "500")
	}
	atask, far := postArena("10"), postArena("1000")
	sres = mustSubmit(t, home, node, false, "arena", "--from", "bob", "--task-id", atask, "--artifact-hash", hash32("bob arena"))
	asub := attr(t, sres.Commit, wire.EventSubmissionAdded, "submission_id")
	// <home>/reveals/<chain id>/<bob's key>/task-<id>.json
	globbed, _ := filepath.Glob(filepath.Join(home, "reveals", "itest-1", "*", "task-"+atask+".json"))
	if len(globbed) != 1 {
		t.Fatalf("pending reveals of task %s: %v, want one", atask, globbed)
	}
	pending := globbed[0]
	if fi, err := os.Stat(pending); sres.Reveal != nil || sres.Pending != pending || err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("submit: %+v; pending reveal %v, %v", sres, fi, err)
	}
	mustSubmit(t, home, node, false, "arena", "--from", "bob", "--task-id", far, "--artifact-hash", hash32("bob far"))
	if code, out, errOut := runCmd(t, "tx", "reveal", "--from", "bob", "--task", far, "--home", home, "--node", node); code != 1 || out != "" ||
		!strings.Contains(errOut, "reveals open at height") || strings.Count(errOut, "\n") != 1 {
		t.Fatalf("reveal in the commit window: exit %d stdout %q stderr %q", code, out, errOut)
	}
	rev := mustReveal(t, home, node, "--from", "bob", "--task", atask, "--wait")
	if attr(t, rev, wire.EventSubmissionRevealed, "submission_id") != asub {
		t.Fatalf("reveal: %+v", rev)
	}
	if _, err := os.Stat(pending); !os.IsNotExist(err) {
		t.Fatalf("the pending reveal is still there: %v", err)
	}
	queryJSON(t, node, &tv, "task", atask)
	n.waitHeight(t, node, tv.RevealDeadline)
	tx(wire.EventReportReceived, "submission_id", "report", "arena", "--from", "validator", "--submission-id", asub, "--total-tokens", "2500",
		"--tool-calls", "8", "--iterations", "3", "--execution-time", "42", "--estimated-cost", "0.05", "--criteria-passed", "9")
	got = waitScored(t, node, asub) // arena runs are scored at the end of the block
	if s := dec(got.Receipt.Score); s.Sign() <= 0 || s.Cmp(dec("100")) > 0 {
		t.Fatalf("arena submission %s: receipt score %q, want in (0, 100]", asub, got.Receipt.Score)
	}

	// Gas: a prediction committed before the EVM block's timestamp enters the
	// agent's memory at the end of the reveal window that the block's truth
	// opens. The validator's truth of block 99 first anchors the EVM chain: a
	// chain takes predictions only once a block of it is closed.
	chain := strconv.FormatUint(genesis.DefaultGenesis().Chain.GasChains[0], 10)
	past := strconv.FormatInt(time.Now().Unix()-3600, 10)
	tx(wire.EventTruthReceived, "evm_block", "truth", "--from", "validator", "--evm-chain-id", chain, "--evm-block", "99", "--min-price", "20", "--timestamp", past)
	mustSubmit(t, home, node, false, "gas", "--from", "bob", "--evm-chain-id", chain, "--evm-block", "100", "--price", "21.5")
	if code, _, errOut := runCmd(t, "tx", "reveal", "--from", "bob", "--evm-chain", chain, "--evm-block", "100", "--home", home, "--node", node); code != 1 ||
		!strings.Contains(errOut, "no truth round for the EVM block yet") {
		t.Fatalf("gas reveal before the truth: exit %d stderr %q", code, errOut)
	}
	future := strconv.FormatInt(time.Now().Unix()+200, 10)
	tx(wire.EventTruthReceived, "evm_block", "truth", "--from", "validator", "--evm-chain-id", chain, "--evm-block", "100", "--min-price", "20", "--timestamp", future)
	mustReveal(t, home, node, "--from", "bob", "--evm-chain", chain, "--evm-block", "100", "--wait")
	var truth struct {
		RevealUntil int64 `json:"reveal_until"`
	}
	queryJSON(t, node, &truth, "truth", chain, "100")
	n.waitHeight(t, node, truth.RevealUntil) // closed at the end of the window
	var agent struct {
		Closed uint64 `json:"closed"`
		Memory []struct {
			Included    bool   `json:"included"`
			Overpayment string `json:"overpayment"`
		} `json:"memory"`
	}
	queryJSON(t, node, &agent, "gas", uidB, chain)
	if agent.Closed != 1 || len(agent.Memory) != 1 || !agent.Memory[0].Included || agent.Memory[0].Overpayment != scoring.Format(dec("0.075")) {
		t.Fatalf("gas agent %s on chain %s = %+v, want one included slot overpaying 0.075", uidB, chain, agent)
	}

	// A run of EVM blocks in one commit batch (`--blocks`, a price per
	// block), each salt kept as a single commit's; `tx reveal --all` sends
	// nothing before the truths, and with --wait reveals the run once they
	// are final, leaving no pending reveal.
	code, out, errOut := runCmd(t, "tx", "submit", "gas", "--from", "bob", "--evm-chain-id", chain, "--evm-block", "101", "--blocks", "3",
		"--prices", "21,22,23", "--home", home, "--node", node)
	var run client.BatchResult
	if err := json.Unmarshal([]byte(out), &run); err != nil || code != 0 || run.Commit == nil || len(run.CommitEntries) != 3 || len(run.Pending) != 3 {
		t.Fatalf("submit gas --blocks 3: exit %d, %+v (%v), stderr %q", code, run, err, errOut)
	}
	if code, _, errOut := runCmd(t, "tx", "reveal", "--from", "bob", "--all", "--home", home, "--node", node); code != 1 ||
		!strings.Contains(errOut, "no stored commit's window is open") {
		t.Fatalf("reveal --all before the truths: exit %d stderr %q", code, errOut)
	}
	for _, b := range []string{"101", "102", "103"} {
		tx(wire.EventTruthReceived, "evm_block", "truth", "--from", "validator", "--evm-chain-id", chain, "--evm-block", b, "--min-price", "20", "--timestamp", future)
	}
	// --all --wait waits for every stored commit: the one to task far
	// (reveals at ~1000) is dropped first
	farFile, _ := filepath.Glob(filepath.Join(home, "reveals", "itest-1", "*", "task-"+far+".json"))
	if len(farFile) != 1 || os.Remove(farFile[0]) != nil {
		t.Fatalf("the pending reveal of task %s: %v", far, farFile)
	}
	code, out, errOut = runCmd(t, "tx", "reveal", "--from", "bob", "--all", "--wait", "--home", home, "--node", node)
	run = client.BatchResult{}
	if err := json.Unmarshal([]byte(out), &run); err != nil || code != 0 || len(run.RevealEntries) != 3 || len(run.Waiting) != 0 {
		t.Fatalf("reveal --all --wait: exit %d, %+v (%v), stderr %q", code, run, err, errOut)
	}
	if left, _ := filepath.Glob(filepath.Join(home, "reveals", "itest-1", "*", "evm-*.json")); len(left) != 0 {
		t.Fatalf("pending reveals after reveal --all: %v", left)
	}

	// Stop as on SIGINT, restart on the same home: the state is still there
	// and the chain goes on.
	var before struct {
		Height  int64  `json:"height"`
		AppHash string `json:"app_hash"`
	}
	queryJSON(t, node, &before, "status")
	if code := n.stop(t); code != 0 {
		t.Fatalf("start exited with %d on cancel; log:\n%s", code, n.tail())
	}
	n = startNode(t, home)
	n.waitHeight(t, node, before.Height+2)
	queryJSON(t, node, &got, "submission", sub)
	if got.Receipt.Score != scoring.Format(want.Score) {
		t.Fatalf("after restart submission %s score %q, want %s", sub, got.Receipt.Score, scoring.Format(want.Score))
	}
	if code := n.stop(t); code != 0 {
		t.Fatalf("restarted node exited with %d; log:\n%s", code, n.tail())
	}
}

// waitScored polls the submission query until the status is final.
func waitScored(t *testing.T, node, id string) submissionView {
	t.Helper()
	var got submissionView
	for range 100 {
		queryJSON(t, node, &got, "submission", id)
		if got.Status != "pending" {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got.Status != "scored" {
		t.Fatalf("submission %s: status %q, want scored", id, got.Status)
	}
	return got
}

// submissionView is the part of the submission query the test reads.
type submissionView struct {
	Status  string `json:"status"`
	Receipt struct {
		Score  string `json:"score"`
		Height int64  `json:"height"`
	} `json:"receipt"`
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// freeAddr returns a loopback tcp://127.0.0.1:port that was free a moment ago.
func freeAddr(t *testing.T) string { return testnode.FreeAddr(t) }

// runningNode is a `validatord start` running in this process.
type runningNode struct {
	cancel context.CancelFunc
	done   chan int
	log    string
}

// initStarted inits a single-validator home of chainID on free loopback
// ports (init's flags and any extra ones), starts its node and waits for
// its first block; it returns the home, the node's RPC address and the
// node.
func initStarted(t *testing.T, chainID string, extra ...string) (home, node string, n *runningNode) {
	t.Helper()
	home = filepath.Join(t.TempDir(), "home")
	node, p2p := freeAddr(t), freeAddr(t)
	cli(t, append([]string{"init", "--home", home, "--chain-id", chainID, "--rpc-laddr", node, "--p2p-laddr", p2p}, extra...)...)
	n = startNode(t, home)
	n.waitHeight(t, node, 1)
	return home, node, n
}

// startNode runs `validatord start --home home` until stop is called.
func startNode(t *testing.T, home string) *runningNode {
	t.Helper()
	ownLeaderboardPort(t, home)
	logPath := filepath.Join(t.TempDir(), "node.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	n := &runningNode{cancel: cancel, done: make(chan int, 1), log: logPath}
	go func() {
		defer logFile.Close()
		n.done <- run(ctx, Env{Stdin: strings.NewReader(""), Stdout: logFile, Stderr: logFile}, []string{"start", "--home", home})
	}()
	t.Cleanup(func() { n.stop(t) })
	return n
}

// ownLeaderboardPort moves a home's leaderboard page off the default port
// to a free one, so a test node starts beside a real node on this machine.
func ownLeaderboardPort(t *testing.T, home string) {
	t.Helper()
	nc, err := appconfig.Load(home)
	if err != nil {
		t.Fatal(err)
	}
	if nc.LeaderboardAddr != appconfig.DefaultLeaderboardAddr {
		return
	}
	nc.LeaderboardAddr = strings.TrimPrefix(freeAddr(t), "tcp://")
	if err := appconfig.Write(home, nc); err != nil {
		t.Fatal(err)
	}
}

// stop cancels the node (as SIGINT does) and returns its exit code.
func (n *runningNode) stop(t *testing.T) int {
	t.Helper()
	if n.done == nil {
		return 0
	}
	n.cancel()
	select {
	case code := <-n.done:
		n.done = nil
		return code
	case <-time.After(30 * time.Second):
		t.Fatalf("node did not stop within 30s; log %s", n.tail())
		return -1
	}
}

func (n *runningNode) tail() string {
	bz, _ := os.ReadFile(n.log)
	if len(bz) > 3000 {
		bz = bz[len(bz)-3000:]
	}
	return string(bz)
}

// waitHeight waits until the app of the node at addr has committed height
// h (its status query: the node's /status may show a block the app has not
// executed yet).
func (n *runningNode) waitHeight(t *testing.T, addr string, h int64) {
	t.Helper()
	c, err := client.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		var got int64
		st, err := c.Status(context.Background())
		if err == nil {
			got = st.Height
		}
		if err == nil && got >= h {
			return
		}
		select {
		case code := <-n.done:
			n.done = nil
			t.Fatalf("node exited with %d before height %d; log:\n%s", code, h, n.tail())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("height %d not reached in 30s (last %d, err %v); log:\n%s", h, got, err, n.tail())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// cli runs one command that must succeed and returns its stdout.
func cli(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errOut := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("validatord %s: code %d: %s%s", strings.Join(args, " "), code, errOut, out)
	}
	return out
}

// cliTx runs `tx ... --wait` and decodes the printed result.
func cliTx(t *testing.T, home, node string, args ...string) (client.TxResult, int, string) {
	t.Helper()
	full := append([]string{"tx"}, args...)
	full = append(full, "--home", home, "--node", node, "--wait")
	code, out, errOut := runCmd(t, full...)
	var res client.TxResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("validatord %s: code %d, stdout %q, stderr %q", strings.Join(full, " "), code, out, errOut)
	}
	return res, code, errOut
}

// mustTx is cliTx that must be committed with code 0; it returns the value
// of attribute key of event typ.
func mustTx(t *testing.T, home, node, typ, key string, args ...string) string {
	t.Helper()
	res, code, errOut := cliTx(t, home, node, args...)
	if code != 0 || res.Code != 0 || res.Height <= 0 {
		t.Fatalf("tx %v: exit %d, result %+v, stderr %q", args, code, res, errOut)
	}
	v, ok := res.Attr(typ, key)
	if !ok {
		t.Fatalf("tx %v: no %s.%s in events %+v", args, typ, key, res.Events)
	}
	return v
}

// cliSubmit runs `tx submit <args>` (with --wait when wait) and decodes the
// printed client.SubmitResult.
func cliSubmit(t *testing.T, home, node string, wait bool, args ...string) (client.SubmitResult, int, string) {
	t.Helper()
	full := append(append([]string{"tx", "submit"}, args...), "--home", home, "--node", node)
	if wait {
		full = append(full, "--wait")
	}
	code, out, errOut := runCmd(t, full...)
	var res client.SubmitResult
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&res); err != nil {
		t.Fatalf("validatord %s: code %d, stdout %q, stderr %q", strings.Join(full, " "), code, out, errOut)
	}
	return res, code, errOut
}

// mustSubmit is cliSubmit whose commit (and reveal, with wait) succeeded.
func mustSubmit(t *testing.T, home, node string, wait bool, args ...string) client.SubmitResult {
	t.Helper()
	res, code, errOut := cliSubmit(t, home, node, wait, args...)
	if code != 0 || res.Commit.Code != 0 || res.Commit.Height <= 0 || wait != (res.Reveal != nil) {
		t.Fatalf("tx submit %v: exit %d, result %+v, stderr %q", args, code, res, errOut)
	}
	return res
}

// mustReveal runs `tx reveal <args>`, which must succeed, and returns the
// reveal's result.
func mustReveal(t *testing.T, home, node string, args ...string) client.TxResult {
	t.Helper()
	full := append(append([]string{"tx", "reveal"}, args...), "--home", home, "--node", node)
	code, out, errOut := runCmd(t, full...)
	var res client.TxResult
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 || res.Code != 0 || res.Height <= 0 {
		t.Fatalf("validatord %s: code %d, stdout %q, stderr %q", strings.Join(full, " "), code, out, errOut)
	}
	return res
}

// attr is the value of attribute key of event typ in res.
func attr(t *testing.T, res client.TxResult, typ, key string) string {
	t.Helper()
	v, ok := res.Attr(typ, key)
	if !ok {
		t.Fatalf("no %s.%s in events %+v", typ, key, res.Events)
	}
	return v
}

// queryJSON runs `query` and decodes its answer into v.
func queryJSON(t *testing.T, node string, v any, path ...string) {
	t.Helper()
	out := cli(t, append(append([]string{"query"}, path...), "--node", node)...)
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("query %v: %v in %q", path, err, out)
	}
}

func hash32(s string) string { return hex.EncodeToString([]byte(fmt.Sprintf("%-32s", s))[:32]) }
