package client

import (
	"context"
	"crypto/ed25519"
	"errors"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
)

// retiredChain answers every task, truth and submission query as an app
// with state retention answers for an item it deleted.
type retiredChain struct{ height int64 }

func (c retiredChain) retired(path string) error {
	return &QueryError{Path: path, Code: wire.QueryNotFound, Name: "not_found",
		Log: "no " + path + ": this item was " + wire.RetiredNote + " (…)"}
}
func (c retiredChain) Status(context.Context) (*wire.StatusView, error) {
	return &wire.StatusView{Height: c.height}, nil
}
func (c retiredChain) Account(context.Context, ed25519.PublicKey) (*wire.AccountView, error) {
	return nil, errors.New("unused")
}
func (c retiredChain) Task(context.Context, uint64) (*wire.TaskView, error) {
	return nil, c.retired("task")
}
func (c retiredChain) Truth(context.Context, uint64, uint64) (*wire.TruthRoundView, error) {
	return nil, c.retired("truth")
}
func (c retiredChain) Submission(context.Context, uint64) (*wire.SubmissionView, error) {
	return nil, c.retired("submission")
}
func (c retiredChain) Tx(context.Context, string) (TxResult, error) {
	return TxResult{}, errors.New("unused")
}

// TestRevealWindowOfRetiredItems: a pending reveal whose task or EVM
// block's truth round was retired is closed (not "too early"), and the
// reason says retention; IsRetired tells such an answer from a plain
// not-found.
func TestRevealWindowOfRetiredItems(t *testing.T) {
	c := retiredChain{height: 10_000}
	for _, target := range []Target{{TaskID: 3}, {Gas: true, EVMChainID: 1, EVMBlock: 7}} {
		err := CheckRevealWindow(context.Background(), c, PendingReveal{Target: target})
		if !errors.Is(err, ErrRevealClosed) || !strings.Contains(err.Error(), wire.RetiredNote) {
			t.Errorf("%s: %v, want closed, naming retention", target, err)
		}
	}
	if IsRetired(&QueryError{Code: wire.QueryNotFound, Log: "no task 3"}) {
		t.Error("a plain not-found counted as retired")
	}
	if !IsRetired(c.retired("task")) {
		t.Error("a retired answer not recognised")
	}
}
