package oracle

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"syscall"

	"github.com/ethereum/go-ethereum/rpc"
)

// ErrKind names why a call to an endpoint failed: the label of
// validatord_oracle_rpc_errors_total and the word of the log line.
type ErrKind string

// The kinds of failed calls.
const (
	// KindTimeout: no answer within Config.RPCTimeout (an endpoint that
	// accepts the request and never answers, or answers too slowly).
	KindTimeout ErrKind = "timeout"
	// KindRefused: the endpoint could not be reached or turned the call
	// away (connection refused, reset or closed; an HTTP error status).
	KindRefused ErrKind = "refused"
	// KindGarbage: an answer that is not JSON-RPC, or not the shape asked
	// for (a block of another number, receipts that do not match).
	KindGarbage ErrKind = "garbage"
	// KindWrongChain: the endpoint serves another EVM chain than the one
	// the oracle reports.
	KindWrongChain ErrKind = "wrong_chain"
	// KindRPCError: a JSON-RPC error answer.
	KindRPCError ErrKind = "rpc_error"
	// KindOther: anything else (a block the endpoint does not have yet).
	KindOther ErrKind = "other"
)

// ErrGarbage marks an answer that is well-formed JSON-RPC but not the
// shape asked for.
var ErrGarbage = errors.New("unexpected answer")

// ErrWrongChain marks an endpoint that serves another EVM chain.
var ErrWrongChain = errors.New("wrong EVM chain")

// Kind classifies a failed call.
func Kind(err error) ErrKind {
	var (
		ne  net.Error
		he  rpc.HTTPError
		re  rpc.Error
		se  *json.SyntaxError
		te  *json.UnmarshalTypeError
		ope *net.OpError
	)
	switch {
	case errors.Is(err, ErrWrongChain):
		return KindWrongChain
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return KindTimeout
	case errors.Is(err, ErrGarbage), errors.As(err, &se), errors.As(err, &te):
		return KindGarbage
	case errors.As(err, &he), errors.As(err, &ope), errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return KindRefused
	case errors.As(err, &re):
		return KindRPCError
	}
	return KindOther
}
