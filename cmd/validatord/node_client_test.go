package main

import (
	"bytes"
	"net"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/internal/keyfile"
)

// TestNodeUnreachableMessage: every command that asks a node, pointed at a
// loopback port nothing listens on, answers the same one line, which
// names the address and what to do.
func TestNodeUnreachableMessage(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	node := "tcp://" + l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	if _, err := keyfile.Add(home, "alice", bytes.NewReader(make([]byte, 32))); err != nil {
		t.Fatal(err)
	}
	hash := strings.Repeat("AB", 32)
	pub := strings.Repeat("cd", 32)
	want := "validatord: no node answers at " + node + ` (connection refused): start one with "validatord start", or point at another with --node` + "\n"
	for _, args := range [][]string{
		{"query", "params"},
		{"query", "epoch", "latest", "--height", "3"},
		{"query", "tasks"},
		{"query", "submissions", "--task", "1"},
		{"query", "tx", hash},
		{"query", "account", pub},
		{"query", "metagraph"},
		{"query", "params", "--prove", "--witness", node},
		{"wait", "task", "1", "--until", "reveal"},
		{"weights"},
		{"weights", "--verify", "--witness", node},
		{"tx", "approve", "--proposal", "1", "--from", "alice", "--home", home},
		{"tx", "approve", "--proposal", "1", "--from", pub, "--generate-only"},
	} {
		code, out, errOut := runCmd(t, append(args, "--node", node)...)
		if code != 1 || out != "" || errOut != want {
			t.Errorf("validatord %s: exit %d, stdout %q, stderr %q; want exit 1 and %q", strings.Join(args, " "), code, out, errOut, want)
		}
	}
}
