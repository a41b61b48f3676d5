package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/internal/keyfile"
	"github.com/scoringsubnet/validatord/node/appconfig"
)

func TestTestnetCreatesFourWiredHomes(t *testing.T) {
	out := t.TempDir()
	code, stdout, errOut := runCmd(t, "testnet", "--v", "4", "--output", out, "--starting-port", "40000")
	if code != 0 {
		t.Fatalf("testnet: code %d stderr %q", code, errOut)
	}
	var nodes []testnetNode
	if err := json.Unmarshal([]byte(stdout), &nodes); err != nil || len(nodes) != 4 {
		t.Fatalf("testnet output %q: %v", stdout, err)
	}
	ports := map[string]string{}
	claim := func(addr, who string) {
		if prev, dup := ports[addr]; dup {
			t.Errorf("%s and %s both listen on %s", prev, who, addr)
		}
		ports[addr] = who
	}
	var genesisBytes []byte
	for i := 0; i < 4; i++ {
		home := filepath.Join(out, fmt.Sprintf("node%d", i))
		files, err := loadNodeFiles(home)
		if err != nil {
			t.Fatalf("node%d does not pass the start checks: %v", i, err)
		}
		c := files.conf
		want := portsOf(40000, i)
		if c.P2P.ListenAddress != fmt.Sprintf("tcp://127.0.0.1:%d", want.P2P) || c.RPC.ListenAddress != fmt.Sprintf("tcp://127.0.0.1:%d", want.RPC) {
			t.Errorf("node%d p2p %s rpc %s, want ports %+v on 127.0.0.1", i, c.P2P.ListenAddress, c.RPC.ListenAddress, want)
		}
		claim(c.P2P.ListenAddress, fmt.Sprintf("node%d p2p", i))
		claim(c.RPC.ListenAddress, fmt.Sprintf("node%d rpc", i))
		claim(c.Instrumentation.PrometheusListenAddr, fmt.Sprintf("node%d prometheus", i))
		nc, err := appconfig.Load(home)
		if err != nil || nc.LeaderboardAddr != fmt.Sprintf("127.0.0.1:%d", want.Leaderboard) {
			t.Errorf("node%d leaderboard laddr %q (%v), want port %d", i, nc.LeaderboardAddr, err, want.Leaderboard)
		}
		claim(nc.LeaderboardAddr, fmt.Sprintf("node%d leaderboard", i))
		if c.RPC.PprofListenAddress != "" {
			claim(c.RPC.PprofListenAddress, fmt.Sprintf("node%d pprof", i))
		}
		if c.Consensus.TimeoutCommit != 500*time.Millisecond || !c.P2P.AllowDuplicateIP || c.P2P.AddrBookStrict {
			t.Errorf("node%d: timeout_commit %v allow_duplicate_ip %v addr_book_strict %v", i, c.Consensus.TimeoutCommit, c.P2P.AllowDuplicateIP, c.P2P.AddrBookStrict)
		}
		peers := strings.Split(c.P2P.PersistentPeers, ",")
		if len(peers) != 3 {
			t.Errorf("node%d persistent_peers %q, want the 3 others", i, c.P2P.PersistentPeers)
		}
		for j, n := range nodes {
			p := fmt.Sprintf("%s@127.0.0.1:%d", n.NodeID, portsOf(40000, j).P2P)
			if (j == i) == strings.Contains(c.P2P.PersistentPeers, p) {
				t.Errorf("node%d persistent_peers %q and peer %s (self %v)", i, c.P2P.PersistentPeers, p, j == i)
			}
		}
		if string(files.nodeKey.ID()) != nodes[i].NodeID {
			t.Errorf("node%d id %s, printed %s", i, files.nodeKey.ID(), nodes[i].NodeID)
		}
		gb, err := os.ReadFile(c.GenesisFile())
		if err != nil {
			t.Fatal(err)
		}
		if genesisBytes == nil {
			genesisBytes = gb
		} else if string(gb) != string(genesisBytes) {
			t.Errorf("node%d genesis.json differs from node0's", i)
		}
		if b := files.genDoc.ConsensusParams.Block; b.MaxBytes != genesis.ConsensusBlockMaxBytes || genesis.CheckConsensusParams(b.MaxBytes, b.MaxGas) != nil {
			t.Errorf("node%d consensus block params %+v, want max_bytes 4 MiB within the app's bound", i, b)
		}
		st := files.appState
		if len(st.Validators) != 4 {
			t.Fatalf("node%d: %d app validators", i, len(st.Validators))
		}
		if st.Chain.RetainStateBlocks != genesis.NodeRetainStateBlocks {
			t.Errorf("node%d: chain.retain_state_blocks %d, want retention on (%d)", i, st.Chain.RetainStateBlocks, genesis.NodeRetainStateBlocks)
		}
		report, err := keyfile.Load(home, reportKeyName)
		if err != nil {
			t.Fatal(err)
		}
		if v := st.Validators[i]; v.ReportKey != keyfile.InfoOf("", report).PubKey || v.Address != files.pv.GetAddress().String() || v.Name != fmt.Sprintf("node%d", i) {
			t.Errorf("app validator %d = %+v does not match node%d's keys", i, v, i)
		}
	}
}

func TestTestnetRejectsBadFlags(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--v", "4"}, "--output"},
		{[]string{"--v", "0", "--output", "X"}, "--v"},
		{[]string{"--v", "4", "--output", "X", "--starting-port", "65530"}, "--starting-port"},
		{[]string{"--v", "4", "--output", "X", "--starting-port", "80"}, "--starting-port"},
		{[]string{"--v", "4", "--output", "X", "--retain-state-blocks", "100"}, "chain.retain_state_blocks = 100"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			dir := t.TempDir()
			args := []string{"testnet"}
			for _, a := range c.args {
				args = append(args, strings.ReplaceAll(a, "X", filepath.Join(dir, "net")))
			}
			code, _, errOut := runCmd(t, args...)
			if code != 1 || !strings.Contains(errOut, c.want) {
				t.Fatalf("code %d stderr %q, want %q", code, errOut, c.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "net")); err == nil {
				t.Fatal("a refused testnet wrote files")
			}
		})
	}
}

func TestPortsOfAreDistinct(t *testing.T) {
	seen := map[int]bool{}
	for i := 0; i < 64; i++ {
		p := portsOf(26656, i)
		for _, port := range []int{p.P2P, p.RPC, p.Prometheus, p.Leaderboard} {
			if seen[port] {
				t.Fatalf("port %d used twice (node %d)", port, i)
			}
			seen[port] = true
		}
	}
	if p := portsOf(26656, 0); p.P2P != 26656 || p.RPC != 26657 || p.Prometheus != 26660 {
		t.Fatalf("node0 ports %+v, want CometBFT's defaults", p)
	}
}
