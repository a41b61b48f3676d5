package testnethome

import (
	"os"
	"path/filepath"
	"testing"
)

func TestHomesAndRPCAddr(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"node0", "node1", "node3"} { // node2 missing: node3 is not reached
		if err := os.MkdirAll(filepath.Join(dir, n, "config"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg := "[rpc]\nladdr = \"tcp://127.0.0.1:47001\"\n[p2p]\nladdr = \"tcp://127.0.0.1:47000\"\n"
	if err := os.WriteFile(filepath.Join(dir, "node0", "config", "config.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	hs := Homes(dir)
	if len(hs) != 2 || hs[1] != filepath.Join(dir, "node1") {
		t.Fatalf("homes %v", hs)
	}
	if a, err := RPCAddr(hs[0]); err != nil || a != "tcp://127.0.0.1:47001" {
		t.Fatalf("rpc %q %v", a, err)
	}
	if _, err := RPCAddr(hs[1]); err == nil {
		t.Fatal("no config.toml: want an error")
	}
}
