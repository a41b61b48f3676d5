package main

import (
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	cfg "github.com/cometbft/cometbft/config"

	"github.com/scoringsubnet/validatord/node/appconfig"
)

// TestStartServesMetricsAndLeaderboard: with [instrumentation] prometheus =
// true, `start` wraps the app, and CometBFT's endpoint serves the validatord
// series beside its own; the leaderboard page is served on app.toml's
// [leaderboard] laddr, until the node stops.
func TestStartServesMetricsAndLeaderboard(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a CometBFT node")
	}
	home := filepath.Join(t.TempDir(), "home")
	node, p2p := freeAddr(t), freeAddr(t)
	cli(t, "init", "--home", home, "--chain-id", "itest-metrics", "--rpc-laddr", node, "--p2p-laddr", p2p, "--timeout-commit", "100ms")
	conf, err := loadConfig(home)
	if err != nil {
		t.Fatal(err)
	}
	promAddr := strings.TrimPrefix(freeAddr(t), "tcp://")
	conf.Instrumentation.Prometheus = true
	conf.Instrumentation.PrometheusListenAddr = promAddr
	cfg.WriteConfigFile(configFile(home), conf)
	nc, err := appconfig.Load(home)
	if err != nil {
		t.Fatal(err)
	}
	nc.LeaderboardAddr = strings.TrimPrefix(freeAddr(t), "tcp://")
	if err := appconfig.Write(home, nc); err != nil {
		t.Fatal(err)
	}
	n := startNode(t, home)
	n.waitHeight(t, node, 3)
	body := get(t, "http://"+promAddr+"/metrics", http.StatusOK)
	for _, want := range []string{
		"\nvalidatord_height{chain_id=\"itest-metrics\"} ",
		"\nvalidatord_block_work_limit_units{chain_id=\"itest-metrics\",part=\"tx\"} ",
		"\nvalidatord_txs_total{chain_id=\"itest-metrics\",code=\"uids_full\",msg_type=\"register_miner\"} 0",
		"\ncometbft_consensus_height{chain_id=\"itest-metrics\"} ",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	page := "http://" + nc.LeaderboardAddr
	if body := get(t, page+"/", http.StatusOK); !strings.Contains(body, `href="/track/workflow"`) {
		t.Errorf("index page: %s", body)
	}
	if body := get(t, page+"/track/workflow.json", http.StatusOK); !strings.Contains(body, `"track": "workflow"`) {
		t.Errorf("track json: %s", body)
	}
	if code := n.stop(t); code != 0 {
		t.Fatalf("stop: exit %d", code)
	}
	if _, err := http.Get(page + "/"); err == nil {
		t.Error("the page is still served after the node stopped")
	}
}

func get(t *testing.T, url string, status int) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status {
		t.Fatalf("GET %s: %s, want %d: %s", url, resp.Status, status, body)
	}
	return string(body)
}

// TestStartRefusesATakenLeaderboardPort: when app.toml's [leaderboard]
// laddr is taken (another node on the machine), start fails in one line
// naming the address and the setting.
func TestStartRefusesATakenLeaderboardPort(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	cli(t, "init", "--home", home, "--rpc-laddr", freeAddr(t), "--p2p-laddr", freeAddr(t))
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	nc, err := appconfig.Load(home)
	if err != nil {
		t.Fatal(err)
	}
	nc.LeaderboardAddr = taken.Addr().String()
	if err := appconfig.Write(home, nc); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd(t, "start", "--home", home)
	if code != 1 || out != "" || strings.Count(errOut, "\n") != 1 ||
		!strings.Contains(errOut, nc.LeaderboardAddr) || !strings.Contains(errOut, "app.toml [leaderboard] laddr") {
		t.Fatalf("code %d stdout %q stderr %q: want one line naming %s and app.toml [leaderboard] laddr", code, out, errOut, nc.LeaderboardAddr)
	}
}
