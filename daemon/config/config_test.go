package config

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type sample struct {
	Chain struct {
		Node string   `toml:"node" help:"the node's RPC address\nsecond line"`
		Poll Duration `toml:"poll" help:"how often to look"`
	} `toml:"chain"`
	Gas struct {
		Enabled bool     `toml:"enabled" help:"predict gas"`
		EvmRPC  string   `toml:"evm_rpc" help:"EVM endpoint with \"quotes\""`
		Lead    uint64   `toml:"lead" help:"blocks ahead"`
		Chains  []uint64 `toml:"chains" help:"chain ids"`
		Ahead   int      `toml:"ahead" help:"most ahead"`
	} `toml:"gas"`
}

func defaults() *sample {
	s := &sample{}
	s.Chain.Node = "tcp://127.0.0.1:26657"
	s.Chain.Poll = Duration(500 * time.Millisecond)
	s.Gas.Lead = 3
	s.Gas.Chains = []uint64{1, 8453}
	s.Gas.EvmRPC = `a"b\c`
	return s
}

func TestRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x", "daemon.toml")
	if err := Write(path, defaults(), "a daemon\n\nsecond", false); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, defaults(), "", false); err == nil {
		t.Fatal("Write replaced an existing file without force")
	}
	bz, _ := os.ReadFile(path)
	for _, want := range []string{"# a daemon\n#\n# second\n", "[chain]\n# the node's RPC address\n# second line\nnode = ", `poll = "500ms"`, `chains = [1, 8453]`, `evm_rpc = "a\"b\\c"`} {
		if !strings.Contains(string(bz), want) {
			t.Errorf("file lacks %q:\n%s", want, bz)
		}
	}
	got := &sample{}
	if err := Load(path, got); err != nil {
		t.Fatal(err)
	}
	if got.Chain.Poll.D() != 500*time.Millisecond || got.Gas.EvmRPC != `a"b\c` || len(got.Gas.Chains) != 2 || got.Gas.Lead != 3 {
		t.Errorf("round trip: %+v", got)
	}
}

func TestLoadStrict(t *testing.T) {
	err := Decode("d.toml", []byte("[chain]\nnode = \"x\"\n\n[gas]\nevm_rcp = \"y\"\n"), defaults())
	if err == nil || !strings.Contains(err.Error(), "d.toml:5") || !strings.Contains(err.Error(), `"gas.evm_rcp"`) {
		t.Errorf("unknown key: %v", err)
	}
	err = Decode("d.toml", []byte("[gas]\nlead = \"three\"\n"), defaults())
	if err == nil || !strings.Contains(err.Error(), "d.toml:2") {
		t.Errorf("wrong type: %v", err)
	}
	err = Decode("d.toml", []byte("[chain]\npoll = \"soon\"\n"), defaults())
	if err == nil || !strings.Contains(err.Error(), "not a duration") {
		t.Errorf("bad duration: %v", err)
	}
}

func TestFlagsWinOverFile(t *testing.T) {
	cfg := defaults()
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	b := Bind(fs, cfg)
	if err := fs.Parse([]string{"--gas-evm-rpc", "http://e", "--chain-poll", "2s", "--gas-chains", "5,6,7"}); err != nil {
		t.Fatal(err)
	}
	if err := Decode("f", []byte("[gas]\nevm_rpc = \"http://file\"\nlead = 9\n[chain]\npoll = \"1s\"\n"), cfg); err != nil {
		t.Fatal(err)
	}
	if err := b.Apply(); err != nil {
		t.Fatal(err)
	}
	if cfg.Gas.EvmRPC != "http://e" || cfg.Gas.Lead != 9 || cfg.Chain.Poll.D() != 2*time.Second || len(cfg.Gas.Chains) != 3 {
		t.Errorf("after flags: %+v", cfg)
	}
	if !b.Set("gas-evm-rpc") || b.Set("gas-lead") {
		t.Error("Set")
	}
	fs = flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(new(strings.Builder))
	Bind(fs, defaults())
	if err := fs.Parse([]string{"--gas-lead", "-1"}); err == nil {
		t.Error("a negative uint flag parsed")
	}
}
