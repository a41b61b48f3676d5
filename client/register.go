package client

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/membership"
)

// RegistrationSource answers the "registration" query; *Client is one.
type RegistrationSource interface {
	Registration(ctx context.Context) (*wire.RegistrationView, error)
}

// WorkProgress is reported after every slice of RegisterWork's search.
type WorkProgress struct {
	Tries      uint64 // nonces tried so far, over every block hash
	Difficulty uint64 // the difficulty searched for (expected tries)
	WorkHeight int64  // the block whose hash the search binds now
}

// WorkSlice is how many nonces RegisterWork tries between two looks at the
// chain (about 0.15 s on one core at BenchmarkSolve's 150 ns a try).
const WorkSlice = 1 << 20

// ErrNoRecentBlock: the node's "registration" answer named no recent block.
var ErrNoRecentBlock = errors.New("client: the node records no recent block hash to bind work to")

// RegisterWork finds the proof of work of a registration by sender on
// chainID (docs/membership.md) and returns the MsgRegisterMiner to sign. It
// searches WorkSlice nonces at a time against the newest recorded block
// hash at the difficulty in force, and between slices asks src again:
// each try is independent, so moving to a newer block loses nothing.
// progress, when set, is called after every slice; ctx ends the search.
func RegisterWork(ctx context.Context, src RegistrationSource, chainID string, sender ed25519.PublicKey, progress func(WorkProgress)) (*subnetv1.Msg, error) {
	var tries, nonce uint64
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r, err := src.Registration(ctx)
		if err != nil {
			return nil, err
		}
		if len(r.Recent) == 0 {
			return nil, ErrNoRecentBlock
		}
		newest := r.Recent[0]
		hash, err := hex.DecodeString(newest.Hash)
		if err != nil {
			return nil, fmt.Errorf("client: block hash of height %d: %w", newest.Height, err)
		}
		n, ok := membership.Solve(chainID, sender, hash, r.Difficulty, nonce, WorkSlice)
		if ok {
			tries += n - nonce + 1
		} else {
			tries += WorkSlice
		}
		nonce += WorkSlice
		if progress != nil {
			progress(WorkProgress{Tries: tries, Difficulty: r.Difficulty, WorkHeight: newest.Height})
		}
		if ok {
			return RegisterMiner(newest.Height, n), nil
		}
	}
}
