package metrics

import (
	"bufio"
	"crypto/ed25519"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/testnode"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// TestMsgType: every message the client builds is named as its proto field,
// and bytes that are no transaction are "undecodable".
func TestMsgType(t *testing.T) {
	seed := sha256.Sum256([]byte("k"))
	key := ed25519.NewKeyFromSeed(seed[:])
	for _, c := range []struct {
		msg  *subnetv1.Msg
		want string
	}{
		{client.RegisterMiner(3, 7), "register_miner"},
		{client.DeregisterMiner(), "deregister_miner"},
		{client.PostWorkflowTask(&subnetv1.WorkflowTask{TotalSteps: 1}), "post_task"},
		{client.ReportWorkflow(1, &subnetv1.WorkflowMeasurement{}), "report"},
		{client.Truth(1, 2, "3", 4), "truth"},
		{client.Reveal(client.WorkflowPayload(1, make([]byte, 32)), client.Salt{}), "reveal"},
	} {
		raw, err := wire.SignTx("c", key, 0, c.msg)
		if err != nil {
			t.Fatal(err)
		}
		if got := MsgType(raw); got != c.want {
			t.Errorf("MsgType(%T) = %q, want %q", c.msg.Sum, got, c.want)
		}
		if !slices.Contains(MsgTypes(), c.want) {
			t.Errorf("MsgTypes lacks %q", c.want)
		}
	}
	if got := MsgType([]byte("not a tx")); got != MsgUndecodable {
		t.Errorf("garbage: %q", got)
	}
}

// TestNewRegistersOnce: a registry takes one set of series; a second New on
// it fails instead of registering twice, and Default is one set per chain id.
func TestNewRegistersOnce(t *testing.T) {
	reg := prometheus.NewRegistry()
	if _, err := New(reg); err != nil {
		t.Fatal(err)
	}
	if _, err := New(reg); err == nil {
		t.Fatal("a second New on one registry registered")
	}
	a, err := Default("once-a")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := Default("once-a"); a != b {
		t.Fatal("Default built a second set")
	}
	if c, err := Default("once-b"); err != nil || c == a {
		t.Fatalf("another chain id: %v, same set %v", err, c == a)
	}
}

// scrape reads the text exposition of addr/metrics: series (name and labels
// as printed) to value. Every validatord_ series must carry a chain_id
// (always the first label: labels print sorted); those of chain are kept
// with the label cut from their keys, those of other chains (series of
// other tests in this process) dropped.
func scrape(t *testing.T, addr, chain string) map[string]float64 {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("scrape: %s %s", resp.Status, b)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		key := line[:i]
		if strings.HasPrefix(key, Namespace+"_") {
			lbl := `chain_id="` + chain + `"`
			switch {
			case strings.Contains(key, "{"+lbl+"}"):
				key = strings.Replace(key, "{"+lbl+"}", "", 1)
			case strings.Contains(key, "{"+lbl+","):
				key = strings.Replace(key, lbl+",", "", 1)
			case strings.Contains(key, `{chain_id="`):
				continue
			default:
				t.Errorf("%s: no chain_id", key)
			}
		}
		out[key] = v
	}
	return out
}

// TestNodeMetricsScrape starts a real node with the instrumentation
// endpoint on and the app wrapped, drives a miner through a scored workflow
// and arena task, a truth and an epoch, then scrapes the endpoint CometBFT
// serves and checks every validatord series against what was driven (and
// that CometBFT's own series are served beside them).
func TestNodeMetricsScrape(t *testing.T) {
	m, err := Default(testnode.ChainID)
	if err != nil {
		t.Fatal(err)
	}
	opts := testnode.DriveOptions()
	opts.Prometheus, opts.Wrap = true, func(a abcitypes.Application) abcitypes.Application { return Wrap(a, m) }
	n := testnode.Start(t, opts)
	d := n.Drive(t)
	h, err := n.Client.Status(testnode.Ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	n.WaitHeight(t, h.Height+1)
	got := scrape(t, n.MetricsAddr, testnode.ChainID)
	uid := strconv.FormatUint(uint64(d.UID), 10)
	chain := strconv.FormatUint(d.EVMChain, 10)
	positive := []string{
		`validatord_height`,
		`validatord_finalize_block_seconds_count`,
		`validatord_txs_total{code="ok",msg_type="register_miner"}`,
		`validatord_txs_total{code="ok",msg_type="post_task"}`,
		`validatord_txs_total{code="ok",msg_type="commit"}`,
		`validatord_txs_total{code="ok",msg_type="reveal"}`,
		`validatord_txs_total{code="ok",msg_type="report"}`,
		`validatord_txs_total{code="ok",msg_type="truth"}`,
		`validatord_block_work_limit_units{part="tx"}`,
		`validatord_block_work_limit_units{part="end"}`,
		`validatord_block_write_limit_bytes`,
		`validatord_epoch_number`,
		`validatord_epoch_height`,
		`validatord_epoch_compute_seconds`,
		fmt.Sprintf(`validatord_miner_score{track="workflow",uid="%s"}`, uid),
		fmt.Sprintf(`validatord_miner_score{track="arena",uid="%s"}`, uid),
		fmt.Sprintf(`validatord_miner_weight{uid="%s"}`, uid),
		fmt.Sprintf(`validatord_miner_weight_u16{uid="%s"}`, uid),
		fmt.Sprintf(`validatord_truth_final_evm_block{evm_chain_id="%s"}`, chain),
		`cometbft_consensus_height{chain_id="testnode"}`,
		`validatord_checktx_runs_total`,
		`validatord_uids_registered`,
	}
	for _, s := range positive {
		if v, ok := got[s]; !ok || v <= 0 {
			t.Errorf("%s = %v (present %v), want > 0", s, v, ok)
		}
	}
	exact := map[string]float64{
		`validatord_submissions_total{event="received",track="workflow"}`:         1,
		`validatord_submissions_total{event="received",track="arena"}`:            1,
		`validatord_submissions_total{event="scored",track="workflow"}`:           1,
		`validatord_submissions_total{event="scored",track="arena"}`:              1,
		`validatord_submissions_pending{track="workflow"}`:                        0,
		`validatord_submissions_pending{track="arena"}`:                           0,
		`validatord_commits_awaiting_reveal{track="workflow"}`:                    0, // the drive revealed its commits
		`validatord_commits_awaiting_reveal{track="arena"}`:                       0,
		`validatord_block_starved_total`:                                          0,
		`validatord_checktx_batches_total{result="failed"}`:                       0,
		`validatord_txs_total{code="uids_full",msg_type="register_miner"}`:        0,
		`validatord_submissions_total{event="expired",track="gas"}`:               0,
		`validatord_block_carried_total{step="retention"}`:                        0,
		fmt.Sprintf(`validatord_truth_final_evm_block{evm_chain_id="%s"}`, chain): float64(d.EVMBlock),
	}
	for _, q := range []string{"tasks", "truths", "arena", "gas_close", "proposals", "retire", "gas_pause"} {
		exact[fmt.Sprintf(`validatord_carryover_queue_items{queue="%s"}`, q)] = 0
	}
	for s, want := range exact {
		if v, ok := got[s]; !ok || v != want {
			t.Errorf("%s = %v (present %v), want %v", s, v, ok, want)
		}
	}
	if _, ok := got[`validatord_tasks_open`]; !ok {
		t.Error("no validatord_tasks_open")
	}
	for _, tr := range []string{"workflow", "arena", "gas"} {
		for _, name := range []string{"validatord_track_tasks_open", "validatord_commits_awaiting_reveal"} {
			if _, ok := got[fmt.Sprintf(`%s{track="%s"}`, name, tr)]; !ok {
				t.Errorf("no %s for track %s", name, tr)
			}
		}
	}
	if v := got[`validatord_height`]; v < float64(h.Height) {
		t.Errorf("height %v, want ≥ %d", v, h.Height)
	}
	if w := got[fmt.Sprintf(`validatord_miner_weight{uid="%s"}`, uid)]; w > 1 {
		t.Errorf("weight %v > 1", w)
	}
	lag := got[fmt.Sprintf(`validatord_truth_lag_seconds{evm_chain_id="%s"}`, chain)]
	if lag < 25 || lag > 30+WaitLimit.Seconds() {
		t.Errorf("truth lag %v s, want about 30 s (the truth's timestamp was 30 s before it was sent)", lag)
	}
}

// WaitLimit bounds how long the drive may have taken since the truth.
const WaitLimit = 2 * time.Minute
