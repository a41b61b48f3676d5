package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/oracle"
)

func init() {
	c := root.add(&command{name: "oracle", summary: "run a validator's sidecar: `oracle gas` reports EVM gas truths", noun: "sidecar", list: listTable})
	c.add(&command{name: "gas", summary: "report EVM gas truths (a validator's report key), until interrupted", usage: oracleUsage, run: runOracleGas})
}

const oracleUsage = "oracle gas --evm-rpc URL --from KEY [--evm-chain-id N] [--confirmations D] [--start-block B] [--batch-windows N] [--rpc-timeout T] [--metrics-addr HOST:PORT] [--home DIR] [--node ADDR]"

// runOracleGas is `oracle gas`: a flag shim over oracle.Oracle, which runs
// until interrupted.
func runOracleGas(ctx context.Context, env Env, args []string) error {
	fs := newFlags("oracle gas")
	rpcURL := fs.String("evm-rpc", "", "EVM JSON-RPC endpoint (http(s)://, ws(s):// or an IPC path; required)")
	evmChain := fs.Uint64("evm-chain-id", 0, "the EVM chain id (default: ask the endpoint; when given, the endpoint must agree)")
	depth := fs.Uint64("confirmations", 2, "blocks a window's last block must be below the EVM head before it is reported")
	start := fs.Int64("start-block", -1, "where to begin when the chain has closed no window of this EVM chain yet (default: the latest confirmed window)")
	poll := fs.Duration("poll", time.Second, "how often to read the EVM head")
	perTx := fs.Bool("per-tx", false, "price from the transactions' fee fields even when the endpoint has eth_getBlockReceipts")
	rpcTimeout := fs.Duration("rpc-timeout", oracle.DefaultRPCTimeout, "bound on each call to the EVM endpoint and each query to the node; a call without an answer by then is retried")
	batch := fs.Int("batch-windows", oracle.DefaultBatchWindows, fmt.Sprintf("the most windows one transaction reports when several are confirmed at once (a backlog), in a truth batch; 1: one window a transaction (at most %d)", wire.MaxBatch))
	metricsAddr := fs.String("metrics-addr", "", "serve the oracle's Prometheus series at http://HOST:PORT/metrics (default: off; e.g. 127.0.0.1:26661)")
	nonce, wait := int64(-1), false
	f := txFlags{from: fs.String("from", "", "name of the validator's report key in <home>/keys (required)"), home: homeFlag(fs), node: nodeFlag(fs),
		chainID: fs.String("chain-id", "", "chain id (default: ask the node)"), nonce: &nonce, wait: &wait}
	pos, ok, err := parseFlags(env, fs, oracleUsage, args)
	if !ok || err != nil {
		return err
	}
	if err := wantArgs(pos, 0, oracleUsage); err != nil {
		return err
	}
	if *rpcURL == "" {
		return fmt.Errorf("--evm-rpc: an EVM JSON-RPC endpoint is required")
	}
	if *batch < 1 || *batch > wire.MaxBatch {
		return fmt.Errorf("--batch-windows %d: must be in [1, %d] (1 sends each window in a transaction of its own)", *batch, wire.MaxBatch)
	}
	dialCtx, cancel := context.WithTimeout(ctx, *rpcTimeout)
	evm, err := oracle.DialEVM(dialCtx, *rpcURL)
	cancel()
	if err != nil {
		return oneLine(err)
	}
	defer evm.Close()
	if *perTx {
		evm.ForcePerTx()
	}
	logger := log.New(env.Stderr, "", log.LstdFlags|log.LUTC)
	conf := oracle.Config{EvmChainID: *evmChain, Confirmations: *depth, Poll: *poll, RPCTimeout: *rpcTimeout, Logf: logger.Printf,
		StartBlock: uint64(max(*start, 0)), HasStart: *start >= 0, BatchWindows: *batch}
	if *f.chainID == "" {
		// the node may not be up yet: wait for it (one line per change)
		c, err := dialNode(*f.node)
		if err != nil {
			return oneLine(err)
		}
		if *f.chainID, err = oracle.NodeChainID(ctx, conf, func(ctx context.Context) (string, error) {
			st, err := c.NodeStatus(ctx)
			return st.ChainID, err
		}); err != nil {
			if ctx.Err() != nil {
				return nil // interrupted while waiting
			}
			return oneLine(err)
		}
	}
	s, err := openTx(ctx, f)
	if err != nil {
		return oneLine(err)
	}
	if *metricsAddr != "" {
		ln, err := net.Listen("tcp", *metricsAddr)
		if err != nil {
			return fmt.Errorf("--metrics-addr: %w", err)
		}
		conf.Metrics = oracle.NewMetrics()
		go func() { _ = conf.Metrics.Serve(ctx, ln) }()
		logger.Printf("oracle gas: metrics at http://%s/metrics", ln.Addr())
	}
	err = oracle.New(conf, evm, s.node, s.signer).Run(ctx)
	if errors.Is(err, oracle.ErrNotValidator) {
		err = fmt.Errorf("--from %s: %w", *f.from, err)
	}
	return oneLine(err)
}
