// Package subnetload plans the subnet-shaped load of `loadgen bench --subnet M` (scripts/loadgen/bench,
// `make bench-localnet` level subnet:M): what each actor sends at each height of a running
// chain, learnt from the committed blocks' events only, and how the messages are packaged into
// transactions. It does no I/O and reads no clock: the same events give the same messages.
//
// The shape is the one of internal/simsubnet's task tracks: every TaskEvery blocks a validator
// (in turn) posts a workflow task and an arena task; every miner commits to each posted task
// at once, reveals once the task's reveal window is open (a block after it opened, Lag) and
// every validator reports every revealed submission once the reveal window has closed (a block
// later too), before the report deadline. Payloads, salts and measurements come from
// scripts/loadgen/setup and the seed, as the simulation's do.
//
// Pack is the one place where messages become transactions: commits and reveals one
// transaction each, a validator's reports of one height and track in MsgReportBatch messages
// (wire.MaxReportBatch entries and max_tx_bytes at most).
//
//	p, _ := subnetload.New(cfg)
//	for each committed height h: p.Observe(h, events); txs, _ := subnetload.Pack(cfg, p.Due(h))
package subnetload
