//go:build e2e

package e2e

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/scripts/loadgen/bench"
)

// The daemons scenario's shape: 4 validators each running `validator run` (validator 0 posts a
// workflow and an arena task every daemonsPostEvery blocks; all four measure, report and run
// the gas oracle in-process), 16 miners running `miner run` (6 workflow — the last announcing
// a server that answers with wrong bytes —, 5 arena, 5 gas), ganache mining a priced block every
// 2 s, for daemonsRun; two miner daemons and one validator daemon are SIGKILLed at 2/5 of it.
const (
	daemonsWorkflow  = 6
	daemonsArena     = 5
	daemonsGas       = 5
	daemonsPostEvery = 12
	daemonsRevealB   = 40
	daemonsDown      = 5 * time.Second
)

// daemonsRun is how long the daemons run before the last tasks are left to settle.
var daemonsRun = time.Duration(envInt("E2E_DAEMONS_SECONDS", 300)) * time.Second

// daemonFigures are the scenario's numbers (docs/reliability.md).
type daemonFigures struct {
	RunSeconds      int            `json:"run_seconds"`
	Heights         [2]int64       `json:"heights"`
	TasksPosted     map[string]int `json:"tasks_posted"`
	Submissions     map[string]int `json:"submissions"`
	Scored          map[string]int `json:"scored"`
	NotScored       []string       `json:"not_scored,omitempty"`
	LiarSubmissions int            `json:"liar_submissions"`
	LiarScoredZero  int            `json:"liar_scored_zero"`
	GasCommitted    int            `json:"gas_committed"`
	GasCounted      int            `json:"gas_counted"`
	GasByStatus     map[string]int `json:"gas_by_status"`
	// GasCountedPct is counted of committed, less the predictions of EVM blocks the chain
	// closed only by a later block's truth (unscored: none of them could count)
	GasCountedPct    float64        `json:"gas_counted_pct"`
	Unrevealed       int            `json:"unrevealed"`
	ReportsSigned    int            `json:"reports_signed"`
	Conflicting      int            `json:"conflicting_signatures"`
	SignrecConflicts float64        `json:"signrec_conflicts"`
	NoArtifact       float64        `json:"no_artifact_reports"`
	FetchFailures    map[string]int `json:"fetch_failures"`
	Kills            []string       `json:"kills"`
	// CPU seconds a minute of run of the daemons that ran the whole run (not restarted), from
	// /proc/<pid>/stat: per miner daemon by track, and per validator daemon (its oracle included).
	MinerCPUPerMin     map[string]float64 `json:"miner_cpu_s_per_min"`
	ValidatorCPUPerMin float64            `json:"validator_cpu_s_per_min"`
	EVMBlocks          int                `json:"evm_blocks"`
}

// TestDaemons runs the subnet's daemons on a real 4-validator network and a real EVM dev node
// for daemonsRun, kills some of them, lets every task settle and checks what users need: every
// committed workflow and arena submission revealed and scored; at least 99% of the committed
// gas predictions counted; no validator ever signed two measurements of one submission; no
// commit left unrevealed (no lost salt); every honest artifact fetched and measured (scored
// above 0) and the miner whose server lies scored 0 through the no-usable-artifact measurement.
func TestDaemons(t *testing.T) {
	ganache := ganacheBin(t)
	port := basePort + 700
	nw := newNetwork(t, 4, port, "500ms")
	nw.setChainParam("gas_chains", []uint64{ganacheChainID})
	nw.setChainParam("max_prediction_ahead", 15) // the most 256 uids allow
	nw.editAppState(func(st map[string]any) {
		for _, tr := range st["tracks"].([]any) {
			tr.(map[string]any)["reveal_blocks"] = daemonsRevealB
		}
	})
	evm := startGanache(t, nw, ganache, port+50)
	nw.startAll()
	if err := nw.waitAll(3, time.Minute); err != nil {
		t.Fatal(err)
	}
	examples := buildExamples(t)
	node, err := client.Dial(nw.rpcs[0])
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fig := daemonFigures{RunSeconds: int(daemonsRun / time.Second), TasksPosted: map[string]int{}, Submissions: map[string]int{},
		Scored: map[string]int{}, GasByStatus: map[string]int{}, FetchFailures: map[string]int{}}

	// the EVM chain: a priced block every 2 s
	var mined sync.WaitGroup
	var evmBlocks int
	mined.Go(func() {
		for i := 0; ctx.Err() == nil; i++ {
			price := new(big.Int).Mul(big.NewInt(int64(1+i%3)), big.NewInt(1_000_000_000))
			if _, _, err := evm.mine([]ethTx{legacyTx(evm.accounts[0], evm.accounts[1], price)}); err != nil && ctx.Err() == nil {
				t.Errorf("mining: %v", err)
				return
			}
			evmBlocks++
			select {
			case <-ctx.Done():
			case <-time.After(2 * time.Second):
			}
		}
	})
	defer mined.Wait()
	defer cancel()

	// the liar's server: 200 with bytes that are not the artifact, for any path
	liar := &http.Server{Addr: fmt.Sprintf("127.0.0.1:%d", port+98), Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"plan":"not the committed artifact"}`))
	})}
	go func() { _ = liar.ListenAndServe() }()
	defer liar.Close()

	start := time.Now()
	validators := make([]*proc, 4)
	valArgs := func(i int, post bool) []string {
		args := []string{"validator", "run", "--home", nw.homes[i], "--chain-node", nw.rpcs[i], "--chain-key", "validator",
			"--chain-poll", "500ms", "--measure-command", examples["measure"],
			"--gas-evm-rpc", evm.url, "--gas-evm-chain-id", fmt.Sprint(ganacheChainID), "--gas-confirmations", "2",
			"--gas-start-block", "1", "--gas-poll", "200ms", "--metrics-listen", fmt.Sprintf("127.0.0.1:%d", port+60+i)}
		if post {
			args = append(args, "--tasks-post-every-blocks", fmt.Sprint(daemonsPostEvery), "--tasks-tracks", "workflow,arena",
				"--tasks-workflow-submission-blocks", "20", "--tasks-workflow-report-blocks", "60",
				"--tasks-arena-submission-blocks", "20", "--tasks-arena-report-blocks", "60")
		}
		return args
	}
	startValidator := func(i int, post bool) {
		validators[i] = nw.ps.start(t, fmt.Sprintf("validatord%d", i), filepath.Join(nw.homes[i], "daemon.log"), nil, bin("validatord"), valArgs(i, post)...)
	}
	for i := range validators {
		if _, err := run(t, time.Minute, nil, bin("validatord"), "validator", "init", "--home", nw.homes[i]); err != nil {
			t.Fatal(err)
		}
		startValidator(i, i == 0)
	}

	miners := make([]*proc, daemonsWorkflow+daemonsArena+daemonsGas)
	minerArgs := make([][]string, len(miners))
	minerLogs := make([]string, len(miners))
	for j := range miners {
		home := filepath.Join(nw.dir, fmt.Sprintf("miner%d", j))
		key := fmt.Sprintf("m%d", j)
		if _, err := run(t, time.Minute, nil, bin("validatord"), "keys", "add", key, "--home", home); err != nil {
			t.Fatal(err)
		}
		args := []string{"miner", "run", "--home", home, "--chain-node", nw.rpcs[j%4], "--chain-key", key, "--chain-poll", "500ms",
			"--metrics-listen", fmt.Sprintf("127.0.0.1:%d", port+130+j)}
		switch {
		case j < daemonsWorkflow-1:
			args = append(args, "--workflow-solver", examples["solver"]+fmt.Sprintf(" -quality 0.%d", 5+j%5), "--serve-listen", fmt.Sprintf("127.0.0.1:%d", port+100+j))
		case j == daemonsWorkflow-1: // the liar: it announces a server that answers with other bytes
			args = append(args, "--workflow-solver", examples["solver"], "--serve-address", "http://"+liar.Addr)
		case j < daemonsWorkflow+daemonsArena:
			args = append(args, "--arena-solver", examples["solver"]+fmt.Sprintf(" -quality 0.%d", 5+j%5), "--serve-listen", fmt.Sprintf("127.0.0.1:%d", port+100+j))
		default:
			args = append(args, "--gas-evm-rpc", evm.url, "--gas-evm-chain-id", fmt.Sprint(ganacheChainID), "--gas-price-command", examples["price"], "--gas-lead", "2")
		}
		if _, err := run(t, time.Minute, nil, bin("validatord"), "miner", "init", "--home", home); err != nil {
			t.Fatal(err)
		}
		minerArgs[j], minerLogs[j] = args, filepath.Join(nw.dir, fmt.Sprintf("miner%d.log", j))
		miners[j] = nw.ps.start(t, fmt.Sprintf("miner%d", j), minerLogs[j], nil, bin("validatord"), args...)
	}
	h0, _ := nw.height(0)
	fig.Heights[0] = h0

	// mid-run: SIGKILL a workflow miner, a gas miner and a validator daemon, restart them
	time.Sleep(time.Until(start.Add(daemonsRun * 2 / 5)))
	killedGas := daemonsWorkflow + daemonsArena + 1
	for _, v := range []struct {
		name string
		p    *proc
	}{{"miner2 (workflow)", miners[2]}, {fmt.Sprintf("miner%d (gas)", killedGas), miners[killedGas]}, {"validator daemon 2", validators[2]}} {
		if err := v.p.kill(); err != nil {
			t.Fatal(err)
		}
		h, _ := nw.height(0)
		fig.Kills = append(fig.Kills, fmt.Sprintf("%s SIGKILLed at height %d, t=%s", v.name, h, time.Since(start).Round(time.Second)))
	}
	time.Sleep(daemonsDown)
	miners[2] = nw.ps.start(t, "miner2", minerLogs[2], nil, bin("validatord"), minerArgs[2]...)
	miners[killedGas] = nw.ps.start(t, fmt.Sprintf("miner%d", killedGas), minerLogs[killedGas], nil, bin("validatord"), minerArgs[killedGas]...)
	startValidator(2, false)
	t.Logf("%v; restarted after %s", fig.Kills, daemonsDown)

	// the end of the run: validator 0 stops cleanly (SIGTERM) and comes back without posting, so
	// that every task posted can settle
	time.Sleep(time.Until(start.Add(daemonsRun)))
	fig.MinerCPUPerMin, fig.ValidatorCPUPerMin = daemonCPU(t, miners, validators, []int{2, killedGas}, []int{2}, time.Since(start))
	if err := validators[0].stop(30 * time.Second); err != nil || validators[0].exitCode() != 0 {
		t.Errorf("validator daemon 0 on SIGTERM: %v, exit code %d; want a clean stop", err, validators[0].exitCode())
	}
	startValidator(0, false)
	tasks := allTasks(t, node)
	var lastReport int64
	for _, tv := range tasks {
		fig.TasksPosted[tv.Track]++
		lastReport = max(lastReport, tv.ReportDeadline)
	}
	if len(tasks) == 0 {
		t.Fatal("no task was posted")
	}
	if err := nw.waitHeight(0, lastReport+3, 5*time.Minute); err != nil {
		t.Fatal(err)
	}

	// figures from the chain
	uidTrack := map[uint32]string{}
	var liarUID uint32
	for j := range miners {
		acc := accountOf(t, node, filepath.Join(nw.dir, fmt.Sprintf("miner%d", j)), fmt.Sprintf("m%d", j))
		if acc.UID == nil {
			t.Errorf("miner%d never got a uid", j)
			continue
		}
		switch {
		case j < daemonsWorkflow:
			uidTrack[*acc.UID] = "workflow"
		case j < daemonsWorkflow+daemonsArena:
			uidTrack[*acc.UID] = "arena"
		default:
			uidTrack[*acc.UID] = "gas"
		}
		if j == daemonsWorkflow-1 {
			liarUID = *acc.UID
		}
	}
	for _, tv := range tasks {
		subs, err := node.TaskSubmissions(context.Background(), tv.ID, client.Page{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range subs.Submissions {
			fig.Submissions[s.Track]++
			if s.Status == kernel.StatusUnrevealed {
				fig.Unrevealed++
			}
			if s.UID == liarUID {
				fig.LiarSubmissions++
				if s.Status == kernel.StatusScored && s.Score != nil && isZero(*s.Score) {
					fig.LiarScoredZero++
				} else {
					fig.NotScored = append(fig.NotScored, fmt.Sprintf("liar's %d: %s %v", s.ID, s.Status, s.Score))
				}
				continue
			}
			if s.Status == kernel.StatusScored && s.Score != nil && !isZero(*s.Score) {
				fig.Scored[s.Track]++
			} else {
				fig.NotScored = append(fig.NotScored, fmt.Sprintf("%s %d (uid %d, task %d): %s %v", s.Track, s.ID, s.UID, tv.ID, s.Status, s.Score))
			}
		}
	}
	gc, err := node.GasChain(context.Background(), ganacheChainID)
	if err != nil || gc.LastClosedBlock == nil {
		t.Fatalf("gas chain: %+v %v", gc, err)
	}
	for uid, tr := range uidTrack {
		if tr != "gas" {
			continue
		}
		for _, s := range minerSubmissions(t, node, uid) {
			if s.EvmBlock == nil || *s.EvmBlock+daemonsRevealB/2 > *gc.LastClosedBlock {
				continue // not final yet at the end of the run
			}
			fig.GasCommitted++
			fig.GasByStatus[s.Status]++
			// counted: in the agent's memory; scored: and the agent's score taken from it
			if s.Status == kernel.StatusCounted || s.Status == kernel.StatusScored {
				fig.GasCounted++
			}
			if s.Status == kernel.StatusUnrevealed {
				fig.Unrevealed++
			}
		}
	}
	// an `unscored` prediction's EVM block never closed on its own (a truth for a later block
	// swept it): no prediction of it could count, whatever the miner did
	if n := fig.GasCommitted - fig.GasByStatus[kernel.StatusUnscored]; n > 0 {
		fig.GasCountedPct = 100 * float64(fig.GasCounted) / float64(n)
	}
	top, _ := nw.height(0)
	fig.Heights[1] = top
	fig.ReportsSigned, fig.Conflicting = reportSignatures(t, nw, top)
	for i := range validators {
		s, err := scrape(fmt.Sprintf("http://127.0.0.1:%d/metrics", port+60+i))
		if err != nil {
			t.Errorf("validator daemon %d's metrics: %v", i, err)
			continue
		}
		fig.SignrecConflicts += s.sum("validatord_validator_signrec_conflicts_total")
		fig.NoArtifact += s.sum("validatord_validator_reports_total", `outcome="no_artifact"`)
		for _, r := range []string{"mismatch", "unreachable", "status", "timeout", "too_large", "no_address", "bad_address"} {
			fig.FetchFailures[r] += int(s.sum("validatord_validator_fetch_failures_total", fmt.Sprintf(`reason="%s"`, r)))
		}
	}
	fig.EVMBlocks = evmBlocks
	cancel()

	bz, _ := json.MarshalIndent(fig, "", "  ")
	t.Logf("daemons: %s", bz)
	for _, tr := range []string{"workflow", "arena"} {
		want := fig.Submissions[tr]
		if tr == "workflow" {
			want -= fig.LiarSubmissions
		}
		if fig.Scored[tr] == 0 || fig.Scored[tr] != want {
			t.Errorf("%s: %d honest submissions scored above 0 of %d", tr, fig.Scored[tr], want)
		}
	}
	if len(fig.NotScored) > 0 {
		t.Errorf("submissions not scored as they should be: %v", fig.NotScored)
	}
	if fig.LiarSubmissions == 0 || fig.LiarScoredZero != fig.LiarSubmissions || fig.FetchFailures["mismatch"] == 0 {
		t.Errorf("the liar: %d submissions, %d scored 0, %d mismatched fetches; want every one scored 0 after a mismatch",
			fig.LiarSubmissions, fig.LiarScoredZero, fig.FetchFailures["mismatch"])
	}
	if fig.GasCommitted == 0 || fig.GasCountedPct < 99 {
		t.Errorf("gas: %d of %d committed predictions counted (%.2f%% of those whose block closed on its own), want ≥ 99%%: %v", fig.GasCounted, fig.GasCommitted, fig.GasCountedPct, fig.GasByStatus)
	}
	if fig.Conflicting > 0 || fig.SignrecConflicts > 0 {
		t.Errorf("conflicting signatures: %d on chain, %v refused by signing records", fig.Conflicting, fig.SignrecConflicts)
	}
	if fig.Unrevealed > 0 {
		t.Errorf("%d commits never revealed: a salt was lost", fig.Unrevealed)
	}
	for j, m := range miners {
		if !m.running() {
			t.Errorf("miner%d exited (code %d)", j, m.exitCode())
		}
	}
	for i, v := range validators {
		if !v.running() {
			t.Errorf("validator daemon %d exited (code %d)", i, v.exitCode())
		}
	}
	report(t, "daemons", fig)
}

// buildExamples builds the example solver, price and measurement commands into a temp dir.
func buildExamples(t *testing.T) map[string]string {
	t.Helper()
	dir := t.TempDir()
	out := map[string]string{}
	for _, n := range []string{"solver", "price", "measure"} {
		out[n] = filepath.Join(dir, n)
		cmd := exec.Command("go", "build", "-o", out[n], "github.com/scoringsubnet/validatord/scripts/examples/"+n)
		if bz, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", n, err, bz)
		}
	}
	return out
}

// allTasks lists every task of the chain.
func allTasks(t *testing.T, c *client.Client) []wire.TaskView {
	t.Helper()
	var out []wire.TaskView
	f := client.TaskFilter{Page: client.Page{Limit: 100}}
	for {
		v, err := c.Tasks(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range v.Tasks {
			out = append(out, e.TaskView)
		}
		if v.NextAfter == nil {
			return out
		}
		f.After = *v.NextAfter
	}
}

// minerSubmissions lists every submission of a uid.
func minerSubmissions(t *testing.T, c *client.Client, uid uint32) []wire.SubmissionSummaryView {
	t.Helper()
	var out []wire.SubmissionSummaryView
	p := client.Page{Limit: 100}
	for {
		v, err := c.MinerSubmissions(context.Background(), uid, p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v.Submissions...)
		if v.NextAfter == nil {
			return out
		}
		p.After = *v.NextAfter
	}
}

// accountOf is the account of a key of a home.
func accountOf(t *testing.T, c *client.Client, home, key string) *wire.AccountView {
	t.Helper()
	bz, err := run(t, time.Minute, nil, bin("validatord"), "keys", "show", key, "--home", home, "-a")
	if err != nil {
		t.Fatal(err)
	}
	pub, err := hex.DecodeString(strings.TrimSpace(string(bz)))
	if err != nil {
		t.Fatalf("keys show -a: %q: %v", bz, err)
	}
	acc, err := c.Account(context.Background(), pub)
	if err != nil {
		t.Fatal(err)
	}
	return acc
}

func isZero(s string) bool { return strings.Trim(s, "0.") == "" }

// reportSignatures reads every report the chain's blocks hold, single or in a batch, and
// returns how many were signed and how many (validator, submission) pairs were signed with
// two different measurements.
func reportSignatures(t *testing.T, nw *network, top int64) (signed, conflicting int) {
	t.Helper()
	seen := map[string]map[string]bool{}
	for h := int64(1); h <= top; h++ {
		b, err := nw.clients[0].Block(context.Background(), &h)
		if err != nil {
			t.Fatalf("block %d: %v", h, err)
		}
		for _, raw := range b.Block.Txs {
			d, terr := wire.DecodeTx(raw)
			if terr != nil {
				continue
			}
			msg := d.Body.GetMsg()
			reports := msg.GetReportBatch().GetEntries()
			if r := msg.GetReport(); r != nil {
				reports = append(reports, r)
			}
			for _, r := range reports {
				bz, err := r.Marshal()
				if err != nil {
					t.Fatal(err)
				}
				k := fmt.Sprintf("%x/%d", d.Body.Sender, r.SubmissionId)
				if seen[k] == nil {
					seen[k] = map[string]bool{}
				}
				seen[k][string(bz)] = true
				signed++
			}
		}
	}
	var keys []string
	for k, ms := range seen {
		if len(ms) > 1 {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	if len(keys) > 0 {
		t.Logf("signed twice, differently: %v", keys)
	}
	return signed, len(keys)
}

// daemonCPU is the mean CPU a minute of the daemons that were not restarted: per miner daemon
// by track (the first daemonsWorkflow miners are workflow, then arena, then gas), and per
// validator daemon.
func daemonCPU(t *testing.T, miners, validators []*proc, minersKilled, validatorsKilled []int, ran time.Duration) (map[string]float64, float64) {
	t.Helper()
	perMin := func(ps []*proc, skip []int) []float64 {
		var pids []int
		var idx []int
		for i, p := range ps {
			if !slices.Contains(skip, i) && p.running() {
				pids, idx = append(pids, p.cmd.Process.Pid), append(idx, i)
			}
		}
		cpu := bench.ProcessCPU(pids)
		out := make([]float64, len(ps))
		for k, d := range cpu {
			out[idx[k]] = d.Seconds() / ran.Minutes()
		}
		return out
	}
	m := perMin(miners, minersKilled)
	tracks := map[string]float64{}
	counts := map[string]int{}
	for j, v := range m {
		tr := "gas"
		switch {
		case j < daemonsWorkflow:
			tr = "workflow"
		case j < daemonsWorkflow+daemonsArena:
			tr = "arena"
		}
		if v > 0 {
			tracks[tr] += v
			counts[tr]++
		}
	}
	for tr := range tracks {
		tracks[tr] /= float64(counts[tr])
	}
	var vsum float64
	var vn int
	for _, v := range perMin(validators, validatorsKilled) {
		if v > 0 {
			vsum += v
			vn++
		}
	}
	if vn == 0 {
		t.Error("no validator daemon's CPU could be read")
		return tracks, 0
	}
	return tracks, vsum / float64(vn)
}
