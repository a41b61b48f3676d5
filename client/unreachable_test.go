package client_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/client"
)

// closedAddr is the RPC address of a loopback port that was just listened
// on and closed: nothing answers there.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return "tcp://" + addr
}

func TestNodeUnreachable(t *testing.T) {
	addr := closedAddr(t)
	c, err := client.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	calls := map[string]func() error{
		"NodeStatus": func() error { _, err := c.NodeStatus(ctx); return err },
		"Status":     func() error { _, err := c.Status(ctx); return err },
		"Query":      func() error { _, err := c.QueryAt(ctx, "params", 0); return err },
		"Broadcast":  func() error { _, err := c.Broadcast(ctx, []byte("tx")); return err },
		"Tx":         func() error { _, err := c.Tx(ctx, strings.Repeat("AB", 32)); return err },
	}
	for name, call := range calls {
		err := call()
		if !errors.Is(err, client.ErrNodeUnreachable) {
			t.Errorf("%s: %v, want ErrNodeUnreachable", name, err)
			continue
		}
		var ue *client.NodeUnreachableError
		if !errors.As(err, &ue) || ue.Addr != addr || ue.Reason != "connection refused" {
			t.Errorf("%s: %#v, want the address %s and connection refused", name, ue, addr)
		}
		if want := "no node answers at " + addr + " (connection refused)"; err.Error() != want {
			t.Errorf("%s: %q, want %q", name, err, want)
		}
	}
}

func TestUnreachableLeavesOtherErrors(t *testing.T) {
	if u := client.Unreachable("tcp://x:1", errors.New("code 3: bad request")); u != nil {
		t.Errorf("an answer's error classified as unreachable: %v", u)
	}
	if u := client.Unreachable("tcp://x:1", nil); u != nil {
		t.Errorf("nil classified as unreachable: %v", u)
	}
	canceled := &net.OpError{Op: "dial", Net: "tcp", Err: context.Canceled}
	if u := client.Unreachable("tcp://x:1", canceled); u != nil {
		t.Errorf("a dial the caller canceled classified as unreachable: %v", u)
	}
	dns := &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Name: "nosuch.invalid", Err: "no such host", IsNotFound: true}}
	if u := client.Unreachable("tcp://nosuch.invalid:1", dns); u == nil || u.Reason != "no such host nosuch.invalid" {
		t.Errorf("unknown host: %v", u)
	}
}
