// Package oracle is the gas truth oracle, a validator's sidecar: it follows
// an EVM chain through its JSON-RPC endpoint, computes each window's
// minimum non-zero effective gas price (the least over the window's blocks;
// a window is one block unless genesis' chain.gas_windows says k) and the
// timestamp of the window's last block, waits until that block is
// Confirmations deep, and sends the validator's signed MsgTruth once.
//
// It is meant to be left running: every call to the EVM endpoint and the
// node is bounded by Config.RPCTimeout, failures are retried with a
// doubling, jittered backoff for as long as it runs, and the log has one
// line per window and one per change of state (an endpoint down and why,
// up again; the EVM head below the next window, or still for
// Config.HeadStill; the chain not taking truths yet), never one per
// attempt. Run refuses at start what no retry changes: a sender that is
// not a validator's report key, an endpoint of another chain, an EVM chain
// the gas track does not follow (naming the ones it does). Metrics are its
// Prometheus series (Serve serves them).
//
// Prices come from eth_getBlockReceipts' effectiveGasPrice where the
// endpoint serves it, else from each transaction's fee fields
// (EffectivePrice); zero-priced system transactions and transaction types
// it does not know are skipped. Restart-safe: Run begins after the chain's
// last closed window (query gaschain/<id>), and a truth the chain already
// holds from this validator counts as sent. A sent window's round that the
// chain dropped at its deadline (too little power reported in time) while
// the window is still open is sent again. Windows confirmed together (a
// backlog after a restart or a pause, a quiet chain's empty windows) go
// in one MsgTruthBatch of up to Config.BatchWindows truths, each entry's
// outcome its window's as the single truth's would be (batch.go).
//
// go-ethereum enters here and in cmd/validatord only: never in a consensus
// package (scripts/detguard's TestConsensusImportsNoSidecar).
//
//	evm, _ := oracle.DialEVM(ctx, "http://127.0.0.1:8545")
//	node, _ := client.Dial("tcp://127.0.0.1:26657")
//	o := oracle.New(oracle.Config{EvmChainID: 1, Confirmations: 2, RPCTimeout: 10 * time.Second, Logf: log.Printf},
//		evm, node, client.NewSigner(node, chainID, reportKey))
//	err := o.Run(ctx)
package oracle
