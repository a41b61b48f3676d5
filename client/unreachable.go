package client

import (
	"context"
	"errors"
	"fmt"
	"net"
	"syscall"
)

// ErrNodeUnreachable is matched by every *NodeUnreachableError: no node
// answered at the address (refused, unknown host, no route, timed out
// while connecting), as opposed to a node that answered with an error.
var ErrNodeUnreachable = errors.New("node unreachable")

// NodeUnreachableError is a call that could not reach a node: Addr is the
// address as given to Dial, Reason a short cause ("connection refused",
// "no such host"), Err what the transport said.
type NodeUnreachableError struct {
	Addr   string
	Reason string
	Err    error
}

func (e *NodeUnreachableError) Error() string {
	return fmt.Sprintf("no node answers at %s (%s)", e.Addr, e.Reason)
}

// Unwrap gives the transport's error.
func (e *NodeUnreachableError) Unwrap() error { return e.Err }

// Is makes a NodeUnreachableError match ErrNodeUnreachable.
func (e *NodeUnreachableError) Is(target error) bool { return target == ErrNodeUnreachable }

// Unreachable classifies err, returned by a call to the node at addr: a
// *NodeUnreachableError when the connection itself failed, nil when the
// node was reached (or err says nothing of the connection). Callers that
// talk to a node without a Client (a light client's provider) use it so
// that their users see the same error.
func Unreachable(addr string, err error) *NodeUnreachableError {
	if err == nil {
		return nil
	}
	var already *NodeUnreachableError
	if errors.As(err, &already) {
		return already
	}
	if errors.Is(err, context.Canceled) {
		return nil // the caller gave up; the node may well be there
	}
	reason := ""
	var dnsErr *net.DNSError
	var opErr *net.OpError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		reason = "connection refused"
	case errors.Is(err, syscall.EHOSTUNREACH):
		reason = "no route to host"
	case errors.Is(err, syscall.ENETUNREACH):
		reason = "network unreachable"
	case errors.As(err, &dnsErr):
		reason = "no such host " + dnsErr.Name
		if !dnsErr.IsNotFound {
			reason = "host " + dnsErr.Name + " not resolved: " + dnsErr.Err
		}
	case errors.As(err, &opErr) && opErr.Op == "dial":
		// Another failure to connect: a dial timeout, a socket that does
		// not exist (unix://). A read or write error means a node was there.
		reason = "cannot connect"
		if opErr.Timeout() {
			reason = "timed out connecting"
		} else if errors.Is(err, syscall.ENOENT) {
			reason = "no such socket"
		}
	default:
		return nil
	}
	return &NodeUnreachableError{Addr: addr, Reason: reason, Err: err}
}
