package client

import (
	"fmt"

	"github.com/scoringsubnet/validatord/app/wire"
)

// TxError is a transaction that CheckTx refused or that failed in its block:
// Code is the app's result code (wire.Codes), Name its short name. Result is
// what the node answered.
type TxError struct {
	Code   uint32
	Name   string
	Log    string
	Result TxResult
}

func (e *TxError) Error() string {
	return fmt.Sprintf("transaction rejected: code %d: %s", e.Code, e.Log)
}

func txError(res TxResult) error {
	if res.Code == wire.CodeOK {
		return nil
	}
	return &TxError{Code: res.Code, Name: wire.CodeName(res.Code), Log: res.Log, Result: res}
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
