package oracle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/scoringsubnet/validatord/genesis"
)

// ErrNotValidator: the sender's key is not a validator's report key.
var ErrNotValidator = errors.New("not a validator's report key")

// check refuses at start what no retry can change, before any window is
// read: an EVM endpoint of another chain than EvmChainID (which it takes
// from the endpoint when 0), an EVM chain the gas track does not follow,
// and a sender key that is not a validator's report key in force (the
// chain's rule for a Truth's sender, as the account query answers it).
// Each refusal is an ErrFatal that names what the chain allows.
func (o *Oracle) check(ctx context.Context) error {
	allowed, err := o.gasChains(ctx)
	if err != nil {
		return err
	}
	var id uint64
	if err := o.retryTimed(ctx, &o.evm, "read the endpoint's chain id (eth_chainId)", func(ctx context.Context) (err error) {
		id, err = o.src.ChainID(ctx)
		return err
	}); err != nil {
		return err
	}
	switch {
	case o.cfg.EvmChainID == 0:
		o.cfg.EvmChainID = id
		o.cfg.Metrics.known()
		o.ok(&o.evm)
	case o.cfg.EvmChainID != id:
		return fmt.Errorf("%w: the EVM endpoint serves chain %d, not EVM chain %d; %s", ErrFatal, id, o.cfg.EvmChainID, allowedLine(allowed))
	}
	if !slices.Contains(allowed, id) {
		return fmt.Errorf("%w: EVM chain %d is not followed by this chain's gas track; %s", ErrFatal, id, allowedLine(allowed))
	}
	return o.checkSender(ctx)
}

// checkSender refuses a sender key that is not a validator's report key.
func (o *Oracle) checkSender(ctx context.Context) error {
	pub := o.sender.PubKey()
	return o.retryTimed(ctx, &o.node, "query the --from key's account", func(ctx context.Context) error {
		a, err := o.chain.Account(ctx, pub)
		if err != nil {
			return err
		}
		if a.Validator == nil {
			return fmt.Errorf("%w: %w: key %x; the chain takes truths only from the report keys of the validators in force (query validators lists them)", ErrFatal, ErrNotValidator, []byte(pub))
		}
		o.validator = *a.Validator
		return nil
	})
}

// gasChains are the EVM chains the chain's gas track follows
// (chain.gas_chains of the params in force).
func (o *Oracle) gasChains(ctx context.Context) ([]uint64, error) {
	var ids []uint64
	err := o.retryTimed(ctx, &o.node, "query the chain's params", func(ctx context.Context) error {
		p, err := o.chain.Params(ctx)
		if err != nil {
			return err
		}
		var st genesis.AppState
		if err := json.Unmarshal(p.AppState, &st); err != nil {
			return fmt.Errorf("%w: params: %v", ErrFatal, err)
		}
		ids = st.Chain.GasChains
		o.maxTxBytes = st.Chain.MaxTxBytes
		return nil
	})
	return ids, err
}

// allowedLine names the chains the gas track follows.
func allowedLine(ids []uint64) string {
	if len(ids) == 0 {
		return "this chain's gas track follows no EVM chain (chain.gas_chains is empty)"
	}
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.FormatUint(id, 10)
	}
	return "the chain's gas track follows EVM chain ids " + strings.Join(s, ", ") + " (chain.gas_chains)"
}

// allowedLine is the line naming the followed chains, from a fresh query
// (a refusal at send time: governance may have changed them).
func (o *Oracle) allowedLine(ctx context.Context) string {
	ids, err := o.gasChains(ctx)
	if err != nil {
		return "the chains the gas track follows could not be read: " + oneLine(err)
	}
	return allowedLine(ids)
}

// sameChain checks that the EVM endpoint still serves EvmChainID.
func (o *Oracle) sameChain(ctx context.Context) error {
	return o.timed(ctx, func(ctx context.Context) error {
		id, err := o.src.ChainID(ctx)
		if err == nil && id != o.cfg.EvmChainID {
			return fmt.Errorf("%w: the endpoint now serves chain %d, not %d", ErrWrongChain, id, o.cfg.EvmChainID)
		}
		return err
	})
}
