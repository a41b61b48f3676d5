package main

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"

	rpchttp "github.com/cometbft/cometbft/rpc/client/http"

	"github.com/scoringsubnet/validatord/app"
)

// nextNonce asks a live node for the account's next nonce (0 for an unknown account).
func (g *generator) nextNonce(ctx context.Context, pub ed25519.PublicKey) (uint64, error) {
	path := "account/" + hex.EncodeToString(pub)
	var n uint64
	err := g.pool.do(ctx, func(c *rpchttp.HTTP) error {
		res, err := c.ABCIQuery(ctx, path, nil)
		if err != nil {
			return err
		}
		if res.Response.Code == app.QueryNotFound {
			n = 0 // an account that never sent a transaction
			return nil
		}
		if res.Response.Code != 0 {
			return fmt.Errorf("query %s: code %d: %s", path, res.Response.Code, res.Response.Log)
		}
		n, err = parseNonce(res.Response.Value)
		return err
	})
	return n, err
}

// parseNonce reads next_nonce from the account answer; it may be a JSON number or string.
func parseNonce(bz []byte) (uint64, error) {
	var acc struct {
		NextNonce json.RawMessage `json:"next_nonce"`
	}
	if err := json.Unmarshal(bz, &acc); err != nil {
		return 0, fmt.Errorf("account answer: %w", err)
	}
	if len(acc.NextNonce) == 0 {
		return 0, nil
	}
	var s string
	if json.Unmarshal(acc.NextNonce, &s) == nil {
		return strconv.ParseUint(s, 10, 64)
	}
	return strconv.ParseUint(string(acc.NextNonce), 10, 64)
}
