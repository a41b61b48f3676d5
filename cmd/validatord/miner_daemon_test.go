package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMinerInit: `miner init` writes a commented miner.toml holding the
// defaults and the flags given, refuses to write over it without --force,
// and `miner run` reads it with its flags on top; a typo in the file and a
// configuration with no track are refused before anything starts.
func TestMinerInit(t *testing.T) {
	home := t.TempDir()
	code, out, errOut := runCmd(t, "miner", "init", "--home", home, "--gas-evm-rpc", "http://127.0.0.1:8545", "--gas-price-url", "http://127.0.0.1:9/price")
	if code != 0 {
		t.Fatalf("miner init: %d %s", code, errOut)
	}
	path := filepath.Join(home, "miner.toml")
	bz, err := os.ReadFile(path)
	if err != nil || !strings.Contains(out, path) {
		t.Fatalf("miner init wrote %s? %v; printed %q", path, err, out)
	}
	for _, want := range []string{"[chain]\n", "# name of the miner's key", `evm_rpc = "http://127.0.0.1:8545"`, `poll = "1s"`, "[workflow]\n", `solver = ""`} {
		if !strings.Contains(string(bz), want) {
			t.Errorf("miner.toml lacks %q:\n%s", want, bz)
		}
	}
	if code, _, errOut := runCmd(t, "miner", "init", "--home", home); code == 0 || !strings.Contains(errOut, "--force") {
		t.Errorf("a second init: code %d, %q; want a refusal naming --force", code, errOut)
	}
	if code, _, errOut := runCmd(t, "miner", "init", "--home", home, "--force"); code != 0 {
		t.Errorf("init --force: %d %s", code, errOut)
	}
	// the file has no track now (init --force wrote the defaults)
	if code, _, errOut := runCmd(t, "miner", "run", "--home", home); code == 0 || !strings.Contains(errOut, "no track") {
		t.Errorf("run with no track: code %d, %q", code, errOut)
	}
	// a flag of run completes the file: the key is checked next (no such key in the home)
	if code, _, errOut := runCmd(t, "keys", "add", "someone", "--home", home); code != 0 {
		t.Fatal(errOut)
	}
	if code, _, errOut := runCmd(t, "miner", "run", "--home", home, "--workflow-solver", "true", "--chain-key", "nobody"); code == 0 || !strings.Contains(errOut, "--chain-key nobody") {
		t.Errorf("run with a missing key: code %d, %q", code, errOut)
	}
	if err := os.WriteFile(path, []byte("[gas]\nevm_rcp = \"x\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCmd(t, "miner", "run", "--home", home); code == 0 || !strings.Contains(errOut, "miner.toml:2") || !strings.Contains(errOut, "gas.evm_rcp") {
		t.Errorf("run with a typo in the file: code %d, %q", code, errOut)
	}
	if code, _, errOut := runCmd(t, "miner", "run", "--home", home, "--chain-poll", "soon"); code == 0 || !strings.Contains(errOut, "not a duration") {
		t.Errorf("run with a bad flag: code %d, %q", code, errOut)
	}
}
