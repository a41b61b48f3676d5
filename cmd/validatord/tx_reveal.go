package main

import (
	"context"
	"errors"
	"flag"

	"github.com/scoringsubnet/validatord/client"
)

const waitReveal = "wait until the reveal window is open (default: refuse, sending nothing, outside it)"

// defineReveal is `tx reveal`: the commit stored in <home>/reveals for a
// task or an EVM block is revealed (client.Signer.RevealPending), never
// outside its window; the entry is removed once the reveal is in a block.
// It prints the reveal's result.
func defineReveal(fs *flag.FlagSet) txFlow {
	task := fs.Uint64("task", 0, "id of the workflow or arena task committed to")
	chain := fs.Uint64("evm-chain-id", 0, "EVM chain id of the gas prediction committed to (with --evm-block)")
	block := fs.Uint64("evm-block", 0, "EVM block of the gas prediction committed to (with --evm-chain-id)")
	return func(ctx context.Context, open func() (*txSession, error), wait bool) (any, error) {
		t, err := revealTarget(fs, *task, *chain, *block)
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
		store, err := client.NewSaltStore(s.home, s.chainID, s.pub)
		if err != nil {
			return nil, err
		}
		if s.dryRun {
			p, err := store.Load(t)
			if err != nil {
				return nil, err
			}
			return s.send(ctx, client.Reveal(p.Payload, p.Salt), false)
		}
		if wait {
			p, err := store.Load(t)
			if err != nil {
				return nil, err
			}
			if err := client.WaitRevealWindow(ctx, s.node, p, client.DefaultPoll); err != nil {
				return nil, err
			}
		}
		res, err := s.signer.RevealPending(ctx, store, t)
		if res.Hash == "" {
			return nil, err
		}
		return res, err
	}
}

// revealTarget is --task, or --evm-chain-id with --evm-block.
func revealTarget(fs *flag.FlagSet, task, chain, block uint64) (client.Target, error) {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case set["task"] && !set["evm-chain-id"] && !set["evm-block"]:
		return client.Target{TaskID: task}, nil
	case !set["task"] && set["evm-chain-id"] && set["evm-block"]:
		return client.Target{Gas: true, EVMChainID: chain, EVMBlock: block}, nil
	}
	return client.Target{}, errors.New("want --task N, or --evm-chain-id C with --evm-block B")
}
