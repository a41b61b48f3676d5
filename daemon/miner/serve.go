package miner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
)

// ensureServed announces [serve] address on chain (MsgServe) while the
// uid's record holds another; it looks again every 30 polls, so that an
// address changed by another program from the same key is put back.
func (dm *Daemon) ensureServed(ctx context.Context) error {
	addr := dm.cfg.Serve.Address
	if addr == "" || !dm.hasUID || (dm.served && dm.ticks%30 != 0) {
		return nil
	}
	mv, err := dm.d.Node.Miner(ctx, dm.uid)
	if err != nil {
		return err
	}
	if mv.Address == addr {
		dm.served = true
		return nil
	}
	res, err := dm.d.Signer.SendWait(ctx, client.Serve(addr), txTimeout(dm.d.Signer))
	var te *client.TxError
	if errors.As(err, &te) && te.Code == wire.CodeServeTooSoon {
		return fmt.Errorf("the chain takes a new address later: %v", err)
	}
	if err != nil {
		return err
	}
	dm.served = true
	dm.d.Logf("miner: announced %s in block %d", addr, res.Height)
	return nil
}

// txTimeout is how long a send waits for its block.
func txTimeout(s *client.Signer) time.Duration {
	if s.TxTimeout > 0 {
		return s.TxTimeout
	}
	return client.DefaultTxTimeout
}
