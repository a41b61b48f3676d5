// Package rounds is the rounds mode of the load tool (scripts/loadgen; its flood and adversary
// modes are these rounds with that load beside them). It drives a running validatord network
// with every kind of transaction: it registers miners, posts workflow and arena tasks as the validators, commits and then reveals
// as the miners (workflow runs, arena runs, gas predictions: commit-reveal,
// docs/commit-reveal.md), reports measurements and gas truths as each validator, at a bounded
// rate for a chosen time. It prints what it sent and what was committed, what came of the
// commits (reveals, duplicates, unrevealed), and writes one JSON line per committed transaction
// (hash, height, submission id) for the reliability checker (scripts/e2e).
//
//	go run ./scripts/loadgen rounds --testnet .localnet --duration 60s --rate 20 --out load.jsonl
//
// A miner commits while a task or EVM block takes commits, keeps the payload and its salt in
// memory, and reveals them in the target's reveal window: a task's opens the block after its
// submission deadline (task/<id>), an EVM block's the block after its truth became final
// (truth/<chain>/<block>). Validators report a submission only once its task's reveal window
// has closed. After --duration no new round starts; what is in flight is revealed and
// reported for at most --drain.
//
// Transactions go to any live node of the testnet: when a node is down, the next one is
// used, so the load survives validators being killed. A transaction counts as committed only
// once a node returned it from /tx with code 0.
//
// With --flood-rate R, R workflow commits a second are offered open loop beside the honest
// rounds, from --flood-miners miners of their own that never wait for a block (flood.go): a
// watcher matches the blocks, and a transaction lost in a killed node's mempool is resent by
// its signer's Recover (client.Signer, LostAfter --lost-after blocks). The stats' flood
// figures count what was offered, accepted, committed, resent, re-signed and lost:
//
//	go run ./scripts/loadgen flood --testnet .localnet --duration 60s --flood-rate 500 --stats stats.json
//
// With --adversary I, validator I (its report key from the testnet, less than 1/3 of the
// power) leaves the honest rounds and attacks beside them for --adversary-duration:
// task floods stacked on one report deadline up to chain.max_open_tasks, truth floods past
// the gas window and into the future, and its reports on the honest submissions held back and
// released in one burst. Two miners of its own attack commit-reveal: copies of an honest
// artifact committed after their owner's (duplicates, score 0), commits of an artifact or a
// price after seeing its reveal (27, 33), reveals with a wrong salt (50), commits withheld
// (unrevealed) and gas commits after the EVM block's time (late). Its refusals (40, 43, 44,
// 45, 46, 27, 33, 50, …) are counted by code under the kinds adversary/…, never errors:
//
//	go run ./scripts/loadgen adversary --testnet .localnet --duration 60s --adversary 3 --stats stats.json
package rounds
