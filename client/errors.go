package client

import (
	"errors"
	"fmt"

	"github.com/scoringsubnet/validatord/app/wire"
)

// TxError is a transaction that CheckTx refused or that failed in its block:
// Code is the app's result code (wire.Codes), Name its short name. Result is
// what the node answered. Hint, when set, says what to do (a nonce
// refusal: NonceHint).
type TxError struct {
	Code   uint32
	Name   string
	Log    string
	Result TxResult
	Hint   string
}

func (e *TxError) Error() string {
	if e.Hint != "" {
		return fmt.Sprintf("transaction rejected: code %d: %s; %s", e.Code, e.Log, e.Hint)
	}
	return fmt.Sprintf("transaction rejected: code %d: %s", e.Code, e.Log)
}

func txError(res TxResult) error {
	if res.Code == wire.CodeOK {
		return nil
	}
	e := &TxError{Code: res.Code, Name: wire.CodeName(res.Code), Log: res.Log, Result: res}
	if next, ok := e.NextNonce(); ok {
		e.Hint = nonceHint(res.Code, next, " (counting this key's transactions in the node's mempool)")
	}
	return e
}

// NextNonce is the sender's next nonce that CheckTx's nonce refusal carries
// (wire.DecodeNextNonce of its data; CheckTx counts the key's transactions in
// the node's mempool); false for other refusals and failures in a block.
func (e *TxError) NextNonce() (uint64, bool) {
	if !wire.IsNonceCode(e.Code) {
		return 0, false
	}
	return wire.DecodeNextNonce(e.Result.Data)
}

// QueryError is a query that the app answered with a non-zero code
// (wire.QueryBadRequest, wire.QueryNotFound, …); Name is the code's name.
type QueryError struct {
	Path string
	Code uint32
	Name string
	Log  string
}

func (e *QueryError) Error() string {
	return fmt.Sprintf("query %s: code %d: %s", e.Path, e.Code, e.Log)
}

// AddrError is a node address that Dial cannot use.
type AddrError struct {
	Addr string
}

func (e *AddrError) Error() string {
	return fmt.Sprintf("%q, want an address with its scheme, e.g. tcp://%s", e.Addr, e.Addr)
}

// Errors of the commit-reveal flows and the SaltStore; match them with
// errors.Is.
var (
	// ErrNoPendingReveal: the store has no entry for the target.
	ErrNoPendingReveal = errors.New("no pending reveal")
	// ErrRevealExists: the store already has an entry for the target (another
	// payload, another key, or a commit already on chain).
	ErrRevealExists = errors.New("a pending reveal already exists")
	// ErrBadRevealFile is matched by every *RevealFileError.
	ErrBadRevealFile = errors.New("bad pending reveal file")
	// ErrRevealTooEarly: the target's reveal window is not open at the next block.
	ErrRevealTooEarly = errors.New("reveal window not open yet")
	// ErrCommitRefused: a pending reveal's commit was an entry that its
	// commit batch refused; the entry was removed.
	ErrCommitRefused = errors.New("the commit batch refused this entry")
	// ErrRevealClosed: the target's reveal window has passed, or will never open.
	ErrRevealClosed = errors.New("reveal window closed")
	// ErrNotMiner: the key owns no miner uid.
	ErrNotMiner = errors.New("not a registered miner")
)

// RevealFileError is a pending reveal's file that cannot be used: Path
// names it, Err says why. It matches ErrBadRevealFile.
type RevealFileError struct {
	Path string
	Err  error
}

func (e *RevealFileError) Error() string {
	return fmt.Sprintf("pending reveal %s: %v", e.Path, e.Err)
}

// Unwrap gives the underlying error.
func (e *RevealFileError) Unwrap() error { return e.Err }

// Is makes a RevealFileError match ErrBadRevealFile.
func (e *RevealFileError) Is(target error) bool { return target == ErrBadRevealFile }

// RevealWindowError says that a target's reveal window is not open for the
// next block (Next = the app's committed height + 1): not yet
// (ErrRevealTooEarly), or no more (ErrRevealClosed, Closed set). First and
// Last are the window when the chain knows it (0 for an EVM block whose
// truth is not final yet); Reason says what the chain showed.
type RevealWindowError struct {
	Target      Target
	Next        int64
	First, Last int64
	Closed      bool
	Reason      string
}

func (e *RevealWindowError) Error() string {
	switch {
	case e.Reason != "":
		return fmt.Sprintf("reveal of %s: %s (the next block is %d)", e.Target, e.Reason, e.Next)
	case e.Closed:
		return fmt.Sprintf("reveal of %s: reveals closed at height %d (the next block is %d)", e.Target, e.Last, e.Next)
	}
	return fmt.Sprintf("reveal of %s: reveals open at height %d (the next block is %d)", e.Target, e.First, e.Next)
}

// Is matches ErrRevealClosed or ErrRevealTooEarly.
func (e *RevealWindowError) Is(target error) bool {
	if e.Closed {
		return target == ErrRevealClosed
	}
	return target == ErrRevealTooEarly
}
