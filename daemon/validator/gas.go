package validator

import (
	"context"
	"errors"
	"time"

	"github.com/scoringsubnet/validatord/oracle"
)

// runOracle runs the gas track's truth oracle (`validatord oracle gas`) in
// the daemon's process with the daemon's signer: a client.Signer
// serialises its sends on the key and counts the nonce once for both, so
// the reports and the truths never take each other's nonce. It returns
// when ctx ends (nil) or the oracle cannot report at all.
func (d *Daemon) runOracle(ctx context.Context) error {
	g := d.cfg.Gas
	var evm *oracle.EVM
	last := "" // the last dial error logged (one line per change)
	for {
		dctx, cancel := context.WithTimeout(ctx, g.RPCTimeout.D())
		e, err := oracle.DialEVM(dctx, g.EvmRPC)
		cancel()
		if err == nil {
			evm = e
			break
		}
		if ctx.Err() != nil {
			return nil
		}
		if err.Error() != last {
			last = err.Error()
			d.logf("validator: gas oracle: %v (retrying every %s)", err, g.Poll)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(g.Poll.D()):
		}
	}
	defer evm.Close()
	if g.PerTx {
		evm.ForcePerTx()
	}
	conf := oracle.Config{EvmChainID: g.EvmChainID, Confirmations: g.Confirmations, Poll: g.Poll.D(), RPCTimeout: g.RPCTimeout.D(),
		StartBlock: uint64(max(g.StartBlock, 0)), HasStart: g.StartBlock >= 0, BatchWindows: g.BatchWindows, Logf: d.logf, Metrics: d.oracleMetrics}
	err := oracle.New(conf, evm, d.c, d.signer).Run(ctx)
	if err != nil && ctx.Err() == nil {
		if errors.Is(err, oracle.ErrNotValidator) {
			return &NotValidatorError{Key: d.keyName, PubKey: d.pubHex}
		}
		return err
	}
	return nil
}
