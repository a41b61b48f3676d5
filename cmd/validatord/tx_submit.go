package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/scoringsubnet/validatord/app/wire"

	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

const waitSubmit = "also wait until the reveal window is open, reveal, and wait for the reveal's block (default: commit only; reveal later with tx reveal)"

// submitFlow is `tx submit <kind>`: the payload's flags, then a commit whose
// salt client.SaltStore keeps in <home>/reveals/<chain id>/ (written before
// the commit is broadcast), and with --wait the reveal once its window is
// open (client.Signer.SubmitAndReveal). It prints a client.SubmitResult.
// Several payloads (`submit gas --blocks N`) go in one commit batch, every
// salt stored before it is broadcast (client.Signer.CommitPayloads), and
// --wait reveals them in batches as their windows open
// (client.Signer.SubmitAllAndReveal); it prints a client.BatchResult.
func submitFlow(define func(fs *flag.FlagSet) func() ([]*subnetv1.MsgSubmit, error)) func(fs *flag.FlagSet) txFlow {
	return func(fs *flag.FlagSet) txFlow {
		build := define(fs)
		return func(ctx context.Context, open func() (*txSession, error), wait bool) (any, error) {
			payloads, err := build()
			if err != nil {
				return nil, err
			}
			s, err := open()
			if err != nil {
				return nil, err
			}
			if s.generateOnly {
				return nil, errNoOffline
			}
			if s.dryRun {
				return dryCommit(ctx, s, payloads)
			}
			store, err := client.NewSaltStore(s.home, s.signer.ChainID(), s.signer.PubKey())
			if err != nil {
				return nil, err
			}
			uid, err := s.signer.UID(ctx)
			if err != nil {
				return nil, err
			}
			if len(payloads) > 1 {
				return submitBatch(ctx, s, store, uid, payloads, wait)
			}
			payload := payloads[0]
			var res client.SubmitResult
			if wait {
				res, err = s.signer.SubmitAndReveal(ctx, store, uid, payload)
			} else {
				_, res.Commit, err = s.signer.CommitPayload(ctx, store, uid, payload)
				t, _ := client.TargetOf(payload) // the builders always name a target
				res.Pending = store.Pending(t)
			}
			if res.Commit.Hash == "" {
				return nil, err
			}
			return res, err
		}
	}
}

// submitBatch commits to the payloads in one commit batch and, with wait,
// reveals them as their windows open.
func submitBatch(ctx context.Context, s *txSession, store *client.SaltStore, uid uint32, payloads []*subnetv1.MsgSubmit, wait bool) (any, error) {
	var res client.BatchResult
	var err error
	if wait {
		res, err = s.signer.SubmitAllAndReveal(ctx, store, uid, payloads)
	} else {
		res, err = s.signer.CommitPayloads(ctx, store, uid, payloads)
	}
	if res.Commit == nil || res.Commit.Hash == "" {
		return nil, err
	}
	return res, err
}

// dryCommit asks CheckTx about a commit to the payloads (one commit, or a
// commit batch) under fresh salts that are kept nowhere: nothing is
// stored, nothing is sent.
func dryCommit(ctx context.Context, s *txSession, payloads []*subnetv1.MsgSubmit) (any, error) {
	uid, err := s.signer.UID(ctx)
	if err != nil {
		return nil, err
	}
	commits := make([]*subnetv1.Msg, len(payloads))
	for i, p := range payloads {
		salt, err := client.NewSalt()
		if err != nil {
			return nil, err
		}
		if commits[i], err = client.Commit(s.chainID, s.pub, uid, p, salt); err != nil {
			return nil, err
		}
	}
	msg := commits[0]
	if len(commits) > 1 {
		if msg, err = client.CommitBatch(commits...); err != nil {
			return nil, err
		}
	}
	return s.send(ctx, msg, false)
}

// one makes a builder of one payload a builder of payloads.
func one(define func(fs *flag.FlagSet) func() (*subnetv1.MsgSubmit, error)) func(fs *flag.FlagSet) func() ([]*subnetv1.MsgSubmit, error) {
	return func(fs *flag.FlagSet) func() ([]*subnetv1.MsgSubmit, error) {
		build := define(fs)
		return func() ([]*subnetv1.MsgSubmit, error) {
			p, err := build()
			if err != nil {
				return nil, err
			}
			return []*subnetv1.MsgSubmit{p}, nil
		}
	}
}

// The payload builders of `submit`, one flag per payload field.

func defineWorkflowPayload(fs *flag.FlagSet) func() (*subnetv1.MsgSubmit, error) {
	task := fs.Uint64("task", 0, "id of the workflow task")
	artifact := fs.String("artifact-hash", "", "hex hash of the workflow artifact")
	return func() (*subnetv1.MsgSubmit, error) {
		if err := requireSet(fs, "task", "artifact-hash"); err != nil {
			return nil, err
		}
		h, err := hexFlag("artifact-hash", *artifact)
		if err != nil {
			return nil, err
		}
		return client.WorkflowPayload(*task, h), nil
	}
}

func defineArenaPayload(fs *flag.FlagSet) func() (*subnetv1.MsgSubmit, error) {
	task := fs.Uint64("task", 0, "id of the arena task")
	artifact := fs.String("artifact-hash", "", "hex hash of the run's artifact")
	return func() (*subnetv1.MsgSubmit, error) {
		if err := requireSet(fs, "task", "artifact-hash"); err != nil {
			return nil, err
		}
		h, err := hexFlag("artifact-hash", *artifact)
		if err != nil {
			return nil, err
		}
		return client.ArenaPayload(*task, h), nil
	}
}

// defineGasPayloads is `submit gas`: one EVM block, or with --blocks N
// the run of N blocks from --evm-block (client.GasRun), one --price for
// all or a --prices list with one per block.
func defineGasPayloads(fs *flag.FlagSet) func() ([]*subnetv1.MsgSubmit, error) {
	chain := fs.Uint64("evm-chain-id", 0, "EVM chain id (one of the genesis gas chains)")
	block := fs.Uint64("evm-block", 0, "EVM block number predicted (with --blocks: the first of the run)")
	price := newDecimal(fs, "price", "", "predicted minimum gas price (with --blocks: of every block)")
	blocks := fs.Int("blocks", 1, fmt.Sprintf("commit to this many consecutive EVM blocks from --evm-block in one transaction (a commit batch, at most %d; each block's salt kept as a single commit's; --wait reveals them in batches as their truths become final)", wire.MaxBatch))
	prices := fs.String("prices", "", "a price per block of --blocks, comma-separated in block order (instead of --price)")
	return func() ([]*subnetv1.MsgSubmit, error) {
		if err := requireSet(fs, "evm-chain-id", "evm-block"); err != nil {
			return nil, err
		}
		var ps []string
		switch list := strings.TrimSpace(*prices); {
		case list != "" && strings.TrimSpace(*price.val) != "":
			return nil, errors.New("--price and --prices: give one price for every block or a list, not both")
		case list != "":
			for _, f := range strings.Split(list, ",") {
				p, err := (decimalFlag{name: "prices", val: &f}).get()
				if err != nil {
					return nil, err
				}
				ps = append(ps, p)
			}
		default:
			p, err := price.get()
			if err != nil {
				return nil, err
			}
			ps = []string{p}
		}
		run, err := client.GasRun(*chain, *block, *blocks, ps)
		if err != nil {
			return nil, fmt.Errorf("--blocks %d: %w", *blocks, err)
		}
		return run, nil
	}
}
