package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cometbft/cometbft/types"

	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/internal/keyfile"
)

func TestInitCreatesAStartableHome(t *testing.T) {
	home := filepath.Join(t.TempDir(), "h")
	code, out, errOut := runCmd(t, "init", "--home", home, "--chain-id", "test-1", "--moniker", "v0", "--power", "7", "--timeout-commit", "250ms")
	if code != 0 {
		t.Fatalf("init: code %d stderr %q", code, errOut)
	}
	var sum map[string]string
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("init output %q: %v", out, err)
	}
	files, err := loadNodeFiles(home)
	if err != nil {
		t.Fatalf("the new home does not pass the start checks: %v", err)
	}
	c := files.conf
	if c.RPC.ListenAddress != "tcp://127.0.0.1:26657" || c.P2P.ListenAddress != "tcp://127.0.0.1:26656" {
		t.Errorf("listen addresses rpc %q p2p %q, want loopback", c.RPC.ListenAddress, c.P2P.ListenAddress)
	}
	if c.DBBackend != "goleveldb" || c.Moniker != "v0" || c.Consensus.TimeoutCommit != 250*time.Millisecond {
		t.Errorf("db_backend %q moniker %q timeout_commit %v", c.DBBackend, c.Moniker, c.Consensus.TimeoutCommit)
	}
	if int64(c.Mempool.MaxTxBytes) != files.appState.Chain.MaxTxBytes {
		t.Errorf("mempool max_tx_bytes %d, genesis chain.max_tx_bytes %d", c.Mempool.MaxTxBytes, files.appState.Chain.MaxTxBytes)
	}
	g, st := files.genDoc, files.appState
	if b := g.ConsensusParams.Block; b.MaxBytes != 4<<20 || b.MaxGas != -1 || genesis.CheckConsensusParams(b.MaxBytes, b.MaxGas) != nil {
		t.Errorf("consensus block params %+v, want max_bytes 4 MiB and max_gas -1 within the app's bound", b)
	}
	if want := types.DefaultConsensusParams(); g.ConsensusParams.Evidence != want.Evidence || !reflect.DeepEqual(g.ConsensusParams.Validator, want.Validator) {
		t.Errorf("consensus evidence %+v validator %+v, want CometBFT's defaults", g.ConsensusParams.Evidence, g.ConsensusParams.Validator)
	}
	if g.ChainID != "test-1" || sum["chain_id"] != "test-1" || len(g.Validators) != 1 || g.Validators[0].Power != 7 {
		t.Fatalf("genesis chain %q validators %+v", g.ChainID, g.Validators)
	}
	report, err := keyfile.Load(home, reportKeyName)
	if err != nil {
		t.Fatal(err)
	}
	v := st.Validators[0]
	if v.Name != "v0" || v.Power != 7 || v.ReportKey != keyfile.InfoOf("", report).PubKey || v.ReportKey != sum["report_key"] {
		t.Errorf("app validator %+v, report key %s", v, keyfile.InfoOf("", report).PubKey)
	}
	if v.Address != files.pv.GetAddress().String() || sum["address"] != v.Address {
		t.Errorf("app validator address %s, priv validator %s", v.Address, files.pv.GetAddress())
	}
	// Everything but the validators and retention (on: a week of 1 s
	// blocks) is the default genesis.
	def := genesis.DefaultGenesis()
	def.Validators = st.Validators
	def.Chain.RetainStateBlocks = genesis.NodeRetainStateBlocks
	want, _ := def.Encode()
	got, _ := st.Encode()
	if string(want) != string(got) {
		t.Errorf("app_state differs from DefaultGenesis with this validator:\n%s", got)
	}
	for _, f := range []string{"config/priv_validator_key.json", "config/node_key.json", "keys/validator.json"} {
		st, err := os.Stat(filepath.Join(home, f))
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s perms %04o, want no group/other access", f, st.Mode().Perm())
		}
	}
}

func TestInitRefusesAnExistingHome(t *testing.T) {
	home := t.TempDir()
	if code, _, errOut := runCmd(t, "init", "--home", home); code != 0 {
		t.Fatal(errOut)
	}
	before, _ := os.ReadFile(filepath.Join(home, "config", "genesis.json"))
	code, _, errOut := runCmd(t, "init", "--home", home)
	if code != 1 || !strings.Contains(errOut, "not empty") || !strings.Contains(errOut, "--force") {
		t.Fatalf("second init: code %d stderr %q", code, errOut)
	}
	after, _ := os.ReadFile(filepath.Join(home, "config", "genesis.json"))
	if string(before) != string(after) {
		t.Fatal("a refused init changed genesis.json")
	}
	if code, _, errOut := runCmd(t, "init", "--home", home, "--force"); code != 0 {
		t.Fatalf("init --force: %s", errOut)
	}
	after, _ = os.ReadFile(filepath.Join(home, "config", "genesis.json"))
	if string(before) == string(after) {
		t.Fatal("init --force kept the old genesis")
	}
	if _, err := loadNodeFiles(home); err != nil {
		t.Fatalf("home after --force: %v", err)
	}
}

func TestInitRejectsBadFlags(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--power", "0"}, "power"},
		{[]string{"--chain-id", ""}, "chain_id"},
		{[]string{"--rpc-laddr", "nonsense"}, `--rpc-laddr: "nonsense", want tcp://host:port`},
		{[]string{"--p2p-laddr", "tcp://127.0.0.1:x"}, `--p2p-laddr: "tcp://127.0.0.1:x": bad port "x"`},
		{[]string{"--rpc-laddr", "tcp://127.0.0.1:38901", "--p2p-laddr", "tcp://127.0.0.1:38901"}, "is also --rpc-laddr"},
		{[]string{"--timeout-commit", "-1s"}, "timeout_commit"},
		{[]string{"extra"}, "want 0 argument"},
		{[]string{"--retain-state-blocks", "2010"}, "chain.retain_state_blocks = 2010: must be 0 (keep everything) or more than 2010 blocks"},
		{[]string{"--retain-state-blocks", "-1"}, "chain.retain_state_blocks = -1: must be in [0, "},
		{[]string{"--registration-difficulty", "0"}, "--registration-difficulty: 0, want at least 1"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			home := t.TempDir()
			args := append([]string{"init", "--home", home}, c.args...)
			code, _, errOut := runCmd(t, args...)
			if code != 1 || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
				t.Fatalf("code %d stderr %q, want one line naming %q", code, errOut, c.want)
			}
			if left, _ := os.ReadDir(home); len(left) != 0 {
				t.Errorf("a refused init left %d entries in the home", len(left))
			}
		})
	}
}

// TestInitRetention: init turns state retention on (a week of 1 s blocks)
// unless told otherwise; 0 keeps everything and leaves the field out.
func TestInitRetention(t *testing.T) {
	for _, c := range []struct {
		args []string
		want int64
	}{{nil, genesis.NodeRetainStateBlocks}, {[]string{"--retain-state-blocks", "0"}, 0}, {[]string{"--retain-state-blocks", "2011"}, 2011}} {
		home := filepath.Join(t.TempDir(), "h")
		if code, _, errOut := runCmd(t, append([]string{"init", "--home", home}, c.args...)...); code != 0 {
			t.Fatalf("init %v: %s", c.args, errOut)
		}
		files, err := loadNodeFiles(home)
		if err != nil {
			t.Fatal(err)
		}
		if got := files.appState.Chain.RetainStateBlocks; got != c.want {
			t.Errorf("init %v: chain.retain_state_blocks %d, want %d", c.args, got, c.want)
		}
		if raw := string(files.genDoc.AppState); strings.Contains(raw, "retain_state_blocks") != (c.want != 0) {
			t.Errorf("init %v: app_state %s", c.args, raw)
		}
	}
}
