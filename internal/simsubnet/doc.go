// Package simsubnet simulates a scoring subnet at a real Bittensor shape in
// one process: V validators, N miners and the three tracks drive the App
// (app/) directly through CheckTx, PrepareProposal, ProcessProposal,
// FinalizeBlock and Commit, with no CometBFT networking, and count what it
// costs: transactions, bytes and signature checks per scored submission and
// per counted gas prediction, block execution time, epoch blocks and the
// state's size. It compares packagings of the messages: one transaction
// each (Mode "off"), a validator's reports of a height and track in one
// MsgReportBatch (Mode "batch"), and every batch form (Mode "all": reports,
// truths, commits and reveals, gas predictions committed in runs; batch.go,
// config.go); run with several modes, the same seed and shape run once per
// mode and the table puts them side by side.
// Batch entries refused because their quorum already settled are counted
// apart from the transactions CheckTx refuses.
//
// The run is deterministic: keys, salts and measurements come from
// Config.Seed, block times and hashes from the height, and the actors see
// only the committed blocks' events, so two runs of one Config give the same
// app hash at every height (the test checks it at ReducedConfig's size).
// Times and CPU are measured, never asserted.
//
// Actors build and sign real transactions with client/ (client.Signer,
// client.Commit, client.Reveal, client.RegisterWork, the report and truth
// builders) and the load tool's shapes (scripts/loadgen/setup: tasks,
// payloads, gas bids, keys from seeds). The mempool is modelled as
// CometBFT's: CheckTx as each transaction is sent, the proposal reaped up to
// the block's bytes, the rest rechecked after Commit.
//
//	cfg := simsubnet.FullConfig()
//	cfg.Dir = dir
//	off, err := simsubnet.Run(ctx, cfg)
//	cfg.Mode, cfg.Dir = simsubnet.ModeBatch, dir2
//	batch, err := simsubnet.Run(ctx, cfg)
//	err = simsubnet.WriteTable(os.Stdout, []*simsubnet.Result{off, batch})
package simsubnet
