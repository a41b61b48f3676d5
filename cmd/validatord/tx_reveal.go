package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"

	"github.com/scoringsubnet/validatord/client"
)

const waitReveal = "wait until the reveal window is open (default: refuse, sending nothing, outside it)"

// defineReveal is `tx reveal`: the commit stored in <home>/reveals for a
// task or an EVM block is revealed (client.Signer.RevealPending), never
// outside its window; the entry is removed once the reveal is in a block.
// It prints the reveal's result. With --all it reveals every stored commit
// of the key on the chain whose window is open, in reveal batches
// (revealAll).
func defineReveal(fs *flag.FlagSet) txFlow {
	task := fs.Uint64("task", 0, "id of the workflow or arena task committed to")
	chain := fs.Uint64("evm-chain-id", 0, "EVM chain id of the gas prediction committed to (with --evm-block)")
	block := fs.Uint64("evm-block", 0, "EVM block of the gas prediction committed to (with --evm-chain-id)")
	all := fs.Bool("all", false, "reveal every stored commit of the key on this chain whose window is open, in reveal batches that each fit a transaction (with --wait: each as its window opens, until none waits)")
	return func(ctx context.Context, open func() (*txSession, error), wait bool) (any, error) {
		var t client.Target
		var err error
		if *all {
			err = revealAllFlags(fs)
		} else {
			t, err = revealTarget(fs, *task, *chain, *block)
		}
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
		if *all {
			return revealAll(ctx, s, store, wait)
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

// revealAllFlags refuses --all beside a target's flags.
func revealAllFlags(fs *flag.FlagSet) error {
	var named []string
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "task" || f.Name == "evm-chain-id" || f.Name == "evm-block" {
			named = append(named, "--"+f.Name)
		}
	})
	if len(named) > 0 {
		return fmt.Errorf("--all and %s: --all reveals every stored commit; give a target or --all", strings.Join(named, " "))
	}
	return nil
}

// revealAll is `tx reveal --all`: the key's stored commits on the chain,
// revealed in batches now (client.Signer.RevealOpen) or, with wait, as
// each window opens (client.Signer.RevealAll). It prints a
// client.BatchResult; --dry-run checks the first reveal batch it would
// send (client.RevealBatches).
func revealAll(ctx context.Context, s *txSession, store *client.SaltStore, wait bool) (any, error) {
	targets, err := store.Targets()
	if err != nil {
		return nil, err
	}
	if len(targets) == 0 {
		return nil, fmt.Errorf("%w: none in %s (tx submit stores them)", client.ErrNoPendingReveal, store.Dir())
	}
	if s.dryRun {
		var reveals []*subnetv1.Msg
		for _, t := range targets {
			p, err := store.Load(t)
			if err != nil {
				return nil, err
			}
			reveals = append(reveals, client.Reveal(p.Payload, p.Salt))
		}
		batches, err := client.RevealBatches(reveals...)
		if err != nil {
			return nil, err
		}
		return s.send(ctx, batches[0], false)
	}
	if wait {
		return s.signer.RevealAll(ctx, store, targets, client.DefaultPoll)
	}
	res, _, err := s.signer.RevealOpen(ctx, store, targets)
	if err == nil && len(res.Reveals) == 0 {
		err = fmt.Errorf("%w: no stored commit's window is open for the next block (waiting lists them; --wait waits)", client.ErrRevealTooEarly)
	}
	return res, err
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
