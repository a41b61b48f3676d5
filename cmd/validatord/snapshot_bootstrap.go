package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	cfg "github.com/cometbft/cometbft/config"
	"github.com/cometbft/cometbft/node"
	sm "github.com/cometbft/cometbft/state"
	"github.com/cometbft/cometbft/store"
)

// `snapshot restore --bootstrap`: after the app store is restored, CometBFT's
// own stores get the state of that height, verified by a light client from
// config.toml's [statesync] (rpc_servers, trust_height, trust_hash,
// trust_period), as state sync would have left them: node.BootstrapState,
// CometBFT's offline state sync. `start` then block-syncs from height + 1.

// checkBootstrapConfig refuses, before anything is written, a home whose
// [statesync] cannot drive a light client or whose CometBFT stores hold a
// chain already.
func checkBootstrapConfig(conf *cfg.Config) error {
	ss := conf.StateSync
	switch {
	case len(ss.RPCServers) < 2:
		return fmt.Errorf("--bootstrap: %s: [statesync] rpc_servers lists %d server(s), the light client needs 2 (they may be the same node)", configFile(conf.RootDir), len(ss.RPCServers))
	case ss.TrustHeight <= 0 || ss.TrustHash == "" || ss.TrustPeriod <= 0:
		return fmt.Errorf("--bootstrap: %s: [statesync] trust_height, trust_hash and trust_period must be set (a height and block hash you trust, e.g. from /commit of a trusted node)", configFile(conf.RootDir))
	}
	db, err := cfg.DefaultDBProvider(&cfg.DBContext{ID: "blockstore", Config: conf})
	if err != nil {
		return oneLine(fmt.Errorf("block store in %s: %w", conf.DBDir(), err))
	}
	bs := store.NewBlockStore(db)
	h := bs.Height()
	if err := bs.Close(); err != nil {
		return err
	}
	if h > 0 {
		return fmt.Errorf("--bootstrap: the block store in %s holds blocks up to %d: bootstrap only a home without a chain", conf.DBDir(), h)
	}
	sdb, err := cfg.DefaultDBProvider(&cfg.DBContext{ID: "state", Config: conf})
	if err != nil {
		return oneLine(fmt.Errorf("state database in %s: %w", conf.DBDir(), err))
	}
	ss2 := sm.NewStore(sdb, sm.StoreOptions{})
	st, err := ss2.Load()
	err = errors.Join(err, ss2.Close())
	if err != nil {
		return oneLine(fmt.Errorf("state database in %s: %w", conf.DBDir(), err))
	}
	if !st.IsEmpty() {
		return fmt.Errorf("--bootstrap: the state database in %s holds height %d: bootstrap only a home without a chain", conf.DBDir(), st.LastBlockHeight)
	}
	return nil
}

// bootstrapCometBFT runs node.BootstrapState for height, whose app hash the
// light client must confirm. CometBFT's function logs every level to
// os.Stdout, which is this command's JSON: for the call, os.Stdout is a pipe
// whose lines go to stderr without the debug ones.
func bootstrapCometBFT(ctx context.Context, conf *cfg.Config, height int64, appHash []byte) error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			if line := sc.Text(); !strings.HasPrefix(line, "D[") {
				fmt.Fprintln(os.Stderr, line)
			}
		}
		_, _ = io.Copy(io.Discard, r) // a line over the buffer: drop the rest, never block the writer
	}()
	stdout := os.Stdout
	os.Stdout = w
	err = node.BootstrapState(ctx, conf, cfg.DefaultDBProvider, uint64(height), appHash)
	os.Stdout = stdout
	_ = w.Close()
	<-done
	_ = r.Close()
	if err != nil {
		return oneLine(fmt.Errorf("bootstrap CometBFT's stores at height %d: %w", height, err))
	}
	return nil
}
