// Package bench is the bench mode of the load tool (scripts/loadgen): open-loop or in-flight load
// for comparing a validatord localnet with CometBFT's own kvstore on the same machine
// (`make bench-localnet`).
//
// Two modes of load:
//
//   - --rate R: R transactions a second are offered on a fixed schedule (the i-th at start +
//     i/R) whether or not the earlier ones committed (open loop);
//   - --in-flight N: N transactions are outstanding at all times. With --until checktx (the
//     default, what docs/performance.md's "N in flight (saturated)" rows mean: N concurrent senders) a
//     transaction is outstanding until CheckTx answered its broadcast; with --until commit until
//     it is seen in a block, refused by CheckTx or given up after --tx-timeout.
//
// Two targets:
//
//   - --app validatord: before the measured phase, --miners miners (default 256) register and the
//     validators post enough workflow tasks ahead with their report keys; the measured phase is
//     only signed commits (client.Commit, wire.SignTx), miner i%M committing to task i/M. Every
//     key's next nonce is counted locally (pipelined) and each key sends to one node only
//     (key k to node k%N), so its nonces reach one mempool in order; many keys take turns, so
//     one key's dropped transaction does not stall the run.
//   - --app kvstore: random 218-byte transactions "k=v" for `cometbft start --proxy_app=kvstore`.
//
// A third mode, --subnet M (validatord only, subnet.go): the subnet's own shape, planned by
// scripts/loadgen/subnetload from each committed block's events (/block_results): M miners
// registered with RegisterMiner transactions commit to the workflow and arena tasks the
// validators' report keys post every --task-every blocks, reveal in the reveal window, and every
// validator reports every revealed submission in MsgReportBatch transactions (subnetload.Pack)
// before the report deadline. Each key's transactions go through one worker of its node, in
// nonce order. The counted window holds whole rounds of posts, from the first height after the
// first task's report deadline (every phase running) for at least --duration; the summary has
// the submissions scored in its blocks (submission_scored events) a second, the committed
// transactions per scored submission (by kind), what was offered (tx/s, bytes/s) and, with
// --pids, each node's CPU per scored submission. --match FILE makes a kvstore run offer the
// tx/s and bytes/s a --subnet run offered (transactions of their mean size: --kv-bytes), so
// that kvstore's CPU per transaction stands beside validatord's per scored submission.
//
// --pids (the nodes' pids, in node order; scripts/bench-localnet.sh passes them) adds each
// node's CPU (user + system, /proc/<pid>/stat) over the counted window to every summary, per
// committed transaction and, for --subnet, per scored submission.
//
// Transactions go to the nodes' RPCs round-robin with broadcast_tx_sync (--async:
// broadcast_tx_async). A watcher polls one node's /status and /block and matches the
// transactions of every new block by hash; a transaction's commit latency is from the start of
// its broadcast to the moment its block was seen. The summary (one JSON line on stdout) has the
// committed tx/s over the measured window (transactions in blocks seen within it, less the
// first --warmup, divided by that length), p50/p99/mean latency of the committed ones, CheckTx refusals by code, RPC
// errors, and the transactions never seen in a block by the end of the drain. It also has the
// CPU the load tool itself used over the window per committed transaction (loadgen_cpu_per_tx_us: the
// load generator shares the machine with the nodes) and how busy the whole machine was
// (machine_busy, from /proc/stat; the table's last column): near 100% a level measures the
// CPU each transaction costs rather than how fast the network can go.
//
//	go run ./scripts/loadgen bench --app validatord --testnet bin/bench-localnet/validatord --rate 500 --duration 30s
//	go run ./scripts/loadgen bench --app kvstore --testnet bin/bench-localnet/kvstore --in-flight 32 --duration 30s
//
// `loadgen bench table DIR...` prints the runs' JSON of one or more directories as the issue's
// table, and the subnet levels' runs as a second table (subnetTable).
// Runs of one level pair up in the order they started; a level with two or more pairs (several
// passes, or BENCH_ROUNDS) gets a row of medians and the range of the ratios, since one pass of a
// saturated level on a shared 2-core machine can differ from the next by 0.2.
//
// scripts/bench-localnet.sh makes the two networks and runs the load levels against each.
package bench
