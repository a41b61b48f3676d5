package main

import (
	"context"
	"flag"

	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

const waitSubmit = "also wait until the reveal window is open, reveal, and wait for the reveal's block (default: commit only; reveal later with tx reveal)"

// submitFlow is `tx submit <kind>`: the payload's flags, then a commit whose
// salt client.SaltStore keeps in <home>/reveals/<chain id>/ (written before
// the commit is broadcast), and with --wait the reveal once its window is
// open (client.Signer.SubmitAndReveal). It prints a client.SubmitResult.
func submitFlow(define func(fs *flag.FlagSet) func() (*subnetv1.MsgSubmit, error)) func(fs *flag.FlagSet) txFlow {
	return func(fs *flag.FlagSet) txFlow {
		build := define(fs)
		return func(ctx context.Context, open func() (*txSession, error), wait bool) (any, error) {
			payload, err := build()
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
				return dryCommit(ctx, s, payload)
			}
			store, err := client.NewSaltStore(s.home, s.signer.ChainID(), s.signer.PubKey())
			if err != nil {
				return nil, err
			}
			uid, err := s.signer.UID(ctx)
			if err != nil {
				return nil, err
			}
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

// dryCommit asks CheckTx about a commit to payload under a fresh salt that
// is kept nowhere: nothing is stored, nothing is sent.
func dryCommit(ctx context.Context, s *txSession, payload *subnetv1.MsgSubmit) (any, error) {
	uid, err := s.signer.UID(ctx)
	if err != nil {
		return nil, err
	}
	salt, err := client.NewSalt()
	if err != nil {
		return nil, err
	}
	msg, err := client.Commit(s.chainID, s.pub, uid, payload, salt)
	if err != nil {
		return nil, err
	}
	return s.send(ctx, msg, false)
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

func defineGasPayload(fs *flag.FlagSet) func() (*subnetv1.MsgSubmit, error) {
	chain := fs.Uint64("evm-chain-id", 0, "EVM chain id (one of the genesis gas chains)")
	block := fs.Uint64("evm-block", 0, "EVM block number predicted")
	price := newDecimal(fs, "price", "", "predicted minimum gas price")
	return func() (*subnetv1.MsgSubmit, error) {
		if err := requireSet(fs, "evm-chain-id", "evm-block", "price"); err != nil {
			return nil, err
		}
		p, err := price.get()
		if err != nil {
			return nil, err
		}
		return client.GasPayload(*chain, *block, p), nil
	}
}
