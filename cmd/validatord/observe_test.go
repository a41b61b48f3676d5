package main

import (
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	cfg "github.com/cometbft/cometbft/config"
)

// TestStartServesMetrics: with [instrumentation] prometheus = true, `start`
// wraps the app, and CometBFT's endpoint serves the validatord series beside
// its own.
func TestStartServesMetrics(t *testing.T) {
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
	n := startNode(t, home)
	n.waitHeight(t, node, 3)
	resp, err := http.Get("http://" + promAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	for _, want := range []string{"\nvalidatord_height ", "\nvalidatord_block_work_limit_units{part=\"tx\"} ", "\ncometbft_consensus_height{"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}
