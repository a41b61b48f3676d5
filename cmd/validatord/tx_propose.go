package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// defaultExpiryBlocks is how long a proposal stays open when neither
// --expires-in nor --expires-height is given: well within the genesis
// max_proposal_blocks (50,000), long enough for operators to approve by hand.
const defaultExpiryBlocks = 1000

// expiryFlags are --expires-in and --expires-height of a proposal.
type expiryFlags struct {
	fs         *flag.FlagSet
	in, height *int64
}

func defineExpiry(fs *flag.FlagSet) expiryFlags {
	return expiryFlags{
		fs:     fs,
		in:     fs.Int64("expires-in", defaultExpiryBlocks, "blocks the proposal stays open for, counted from the node's current height"),
		height: fs.Int64("expires-height", 0, "height the proposal stays open until (instead of --expires-in)"),
	}
}

// check refuses both flags together and non-positive values.
func (e expiryFlags) check() error {
	set := map[string]bool{}
	e.fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case set["expires-in"] && set["expires-height"]:
		return errors.New("--expires-in and --expires-height: give one, not both")
	case set["expires-height"] && *e.height <= 0:
		return fmt.Errorf("--expires-height: %d, want a positive height", *e.height)
	case !set["expires-height"] && *e.in <= 0:
		return fmt.Errorf("--expires-in: %d, want a positive number of blocks", *e.in)
	}
	return nil
}

// resolve is --expires-height, else the app's committed height + --expires-in.
func (e expiryFlags) resolve(ctx context.Context, c *client.Client) (int64, error) {
	if *e.height > 0 {
		return *e.height, nil
	}
	st, err := c.Status(ctx)
	if err != nil {
		return 0, err
	}
	return st.Height + *e.in, nil
}

// proposal is what a propose command defines: its expiry flags and prepare,
// which checks the command's own flags and returns the message's builder
// for an expiry height.
type proposal struct {
	exp     expiryFlags
	prepare func() (func(expires int64) *subnetv1.Msg, error)
}

// proposeFlow makes a propose command a tx flow: its flags are checked
// before anything is dialled, then the expiry is asked from the node unless
// given, and the proposal is signed and sent.
func proposeFlow(define func(fs *flag.FlagSet) proposal) func(fs *flag.FlagSet) txFlow {
	return func(fs *flag.FlagSet) txFlow {
		p := define(fs)
		return func(ctx context.Context, open func() (*txSession, error), wait bool) (any, error) {
			build, err := p.check()
			if err != nil {
				return nil, err
			}
			s, err := open()
			if err != nil {
				return nil, err
			}
			expires, err := p.exp.resolve(ctx, s.node)
			if err != nil {
				return nil, err
			}
			return s.send(ctx, build(expires), wait)
		}
	}
}

// check checks the expiry flags and prepares the message.
func (p proposal) check() (func(expires int64) *subnetv1.Msg, error) {
	if err := p.exp.check(); err != nil {
		return nil, err
	}
	return p.prepare()
}
