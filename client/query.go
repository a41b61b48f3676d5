package client

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	rpcclient "github.com/cometbft/cometbft/rpc/client"

	"github.com/scoringsubnet/validatord/app/wire"
)

// Query runs an ABCI query through /abci_query and returns the app's raw
// answer (JSON); a non-zero answer code is a *QueryError.
func (c *Client) Query(ctx context.Context, path string) ([]byte, error) {
	return c.QueryAt(ctx, path, 0)
}

// QueryAt is Query of the state as of height (RequestQuery.Height; 0: the
// last committed). The node answers only heights within its keep_versions;
// an older one is a *QueryError whose log names `validatord export --height`.
func (c *Client) QueryAt(ctx context.Context, path string, height int64) ([]byte, error) {
	if height < 0 {
		return nil, fmt.Errorf("query %s: height %d, want >= 0", path, height)
	}
	res, err := c.rpc.ABCIQueryWithOptions(ctx, path, nil, rpcclient.ABCIQueryOptions{Height: height})
	if err != nil {
		return nil, c.wrap(err)
	}
	if res.Response.Code != wire.QueryOK {
		return nil, &QueryError{Path: path, Code: res.Response.Code, Name: wire.QueryCodeName(res.Response.Code),
			Log: strings.TrimSpace(res.Response.Log)}
	}
	return res.Response.Value, nil
}

// QueryInto runs a query and decodes its JSON answer into v.
func (c *Client) QueryInto(ctx context.Context, path string, v any) error {
	bz, err := c.Query(ctx, path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(bz, v); err != nil {
		return fmt.Errorf("query %s: %w", path, err)
	}
	return nil
}

func query[V any](ctx context.Context, c *Client, path string) (*V, error) {
	v := new(V)
	if err := c.QueryInto(ctx, path, v); err != nil {
		return nil, err
	}
	return v, nil
}

func u64(n uint64) string { return strconv.FormatUint(n, 10) }

// Status is the app's committed height, app hash and chain id ("status").
func (c *Client) Status(ctx context.Context) (*wire.StatusView, error) {
	return query[wire.StatusView](ctx, c, "status")
}

// Params is the genesis app state ("params").
func (c *Client) Params(ctx context.Context) (*wire.ParamsView, error) {
	return query[wire.ParamsView](ctx, c, "params")
}

// Validators are the genesis validators ("validators").
func (c *Client) Validators(ctx context.Context) (*wire.ValidatorsView, error) {
	return query[wire.ValidatorsView](ctx, c, "validators")
}

// Account is a key's account ("account/<pubkey hex>").
func (c *Client) Account(ctx context.Context, pub ed25519.PublicKey) (*wire.AccountView, error) {
	return query[wire.AccountView](ctx, c, "account/"+hex.EncodeToString(pub))
}

// NextNonce is the nonce a key signs its next transaction with (0 for a new
// key): the node's pending one, which counts the key's transactions its
// mempool holds, so that transactions sent one after another without
// waiting for their blocks each get their own (see PendingAccount;
// CommittedNonce is the chain's alone).
func (c *Client) NextNonce(ctx context.Context, pub ed25519.PublicKey) (uint64, error) {
	return c.pendingNonce(ctx, pub)
}

// Miner is a registered uid ("miner/<uid>").
func (c *Client) Miner(ctx context.Context, uid uint32) (*wire.MinerView, error) {
	return query[wire.MinerView](ctx, c, "miner/"+u64(uint64(uid)))
}

// Task is a posted task ("task/<id>").
func (c *Client) Task(ctx context.Context, id uint64) (*wire.TaskView, error) {
	return query[wire.TaskView](ctx, c, "task/"+u64(id))
}

// Submission is a submission with its votes and receipt ("submission/<id>").
func (c *Client) Submission(ctx context.Context, id uint64) (*wire.SubmissionView, error) {
	return query[wire.SubmissionView](ctx, c, "submission/"+u64(id))
}

// Truth is the truth round of one EVM block and, once it is final, the
// reveal window of the block's commits ("truth/<evm chain id>/<evm block>").
func (c *Client) Truth(ctx context.Context, evmChainID, evmBlock uint64) (*wire.TruthRoundView, error) {
	return query[wire.TruthRoundView](ctx, c, "truth/"+u64(evmChainID)+"/"+u64(evmBlock))
}

// GasChain is how far the chain has closed an EVM chain of the gas track,
// and its window size ("gaschain/<evm chain id>").
func (c *Client) GasChain(ctx context.Context, evmChainID uint64) (*wire.GasChainView, error) {
	return query[wire.GasChainView](ctx, c, "gaschain/"+u64(evmChainID))
}

// Window is a miner's workflow and arena windows ("window/<uid>").
func (c *Client) Window(ctx context.Context, uid uint32) (*wire.WindowView, error) {
	return query[wire.WindowView](ctx, c, "window/"+u64(uint64(uid)))
}

// Baseline is an arena task's baseline ("baseline/<task id>").
func (c *Client) Baseline(ctx context.Context, taskID uint64) (*wire.BaselineView, error) {
	return query[wire.BaselineView](ctx, c, "baseline/"+u64(taskID))
}

// GasAgent is a miner's gas agent on an EVM chain ("gas/<uid>/<evm chain id>").
func (c *Client) GasAgent(ctx context.Context, uid uint32, evmChainID uint64) (*wire.GasAgentView, error) {
	return query[wire.GasAgentView](ctx, c, "gas/"+u64(uint64(uid))+"/"+u64(evmChainID))
}

// Leaderboard ranks a track's miners ("leaderboard/<track>").
func (c *Client) Leaderboard(ctx context.Context, track string) (*wire.LeaderboardView, error) {
	return query[wire.LeaderboardView](ctx, c, "leaderboard/"+track)
}

// Epoch is epoch n's weights ("epoch/<n>").
func (c *Client) Epoch(ctx context.Context, n uint64) (*wire.EpochView, error) {
	return query[wire.EpochView](ctx, c, "epoch/"+u64(n))
}

// LatestEpoch is the latest epoch's weights ("epoch/latest").
func (c *Client) LatestEpoch(ctx context.Context) (*wire.EpochView, error) {
	return query[wire.EpochView](ctx, c, "epoch/latest")
}

// TaskResults is an arena task's evaluation ("task/<id>/results"): ranks,
// percentiles, category ranks, outlier flags and warnings of its scored
// submissions.
func (c *Client) TaskResults(ctx context.Context, id uint64) (*wire.TaskResultsView, error) {
	return query[wire.TaskResultsView](ctx, c, "task/"+u64(id)+"/results")
}

// Digest is the score digest of the last committed state with its height
// and app hash ("digest").
func (c *Client) Digest(ctx context.Context) (*wire.DigestView, error) {
	return query[wire.DigestView](ctx, c, "digest")
}

// Counts are the counts the committed state keeps as it goes ("counts"):
// uids held, open tasks, and per track open tasks and commits awaiting their
// reveal.
func (c *Client) Counts(ctx context.Context) (*wire.CountsView, error) {
	return query[wire.CountsView](ctx, c, "counts")
}

// Registration is what a registration pays in the next block
// ("registration"): the difficulty and the recent block hashes work may bind.
func (c *Client) Registration(ctx context.Context) (*wire.RegistrationView, error) {
	return query[wire.RegistrationView](ctx, c, "registration")
}

// QueryProof runs a query whose request carries data and asks the app for a
// Merkle proof (RequestQuery.Prove) of the state as of height (0: the app's
// latest provable height). It returns the whole answer: key, value, proof
// ops and the height of the state read. The answer is not checked here:
// client/lightproof checks it against a header CometBFT's light client
// verified. A non-zero answer code is a *QueryError.
func (c *Client) QueryProof(ctx context.Context, path string, data []byte, height int64) (abcitypes.ResponseQuery, error) {
	if height < 0 {
		return abcitypes.ResponseQuery{}, fmt.Errorf("query %s: height %d, want >= 0", path, height)
	}
	res, err := c.rpc.ABCIQueryWithOptions(ctx, path, data, rpcclient.ABCIQueryOptions{Height: height, Prove: true})
	if err != nil {
		return abcitypes.ResponseQuery{}, c.wrap(err)
	}
	if res.Response.Code != wire.QueryOK {
		return res.Response, &QueryError{Path: path, Code: res.Response.Code, Name: wire.QueryCodeName(res.Response.Code),
			Log: strings.TrimSpace(res.Response.Log)}
	}
	return res.Response, nil
}
