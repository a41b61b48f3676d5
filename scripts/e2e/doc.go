// Package e2e is the reliability harness of `make e2e`: real validatord processes on
// 127.0.0.1 under the load of scripts/loadgen, with validators killed and restarted, crash
// points injected, a validator below 1/3 of the power attacking (loadgen --adversary), the gas
// track's oracles against a real EVM dev node (ganache) with one of them lied to, proven
// queries through CometBFT's stock light proxy in front of an honest node and a lying one,
// and `validatord replay` run over the resulting block stores.
//
// The tests carry the build tag e2e and expect built binaries (make e2e builds them):
//
//	go build -o bin/validatord ./cmd/validatord
//	go build -o bin/loadgen ./scripts/loadgen
//	go build -o bin/cometbft github.com/cometbft/cometbft/cmd/cometbft
//	go build -tags liar -o bin/validatord-liar ./cmd/validatord
//	go test -tags e2e -count=1 -v -timeout 30m ./scripts/e2e/
//
// Environment: E2E_BIN_DIR (default ../../bin), E2E_PORT (first port, default 24000: below the kernel's ephemeral range, so a test elsewhere on the machine cannot hold one of them),
// E2E_LOAD_SECONDS (kill/restart phase, default 130, at least 120 for the bar),
// E2E_LOAD_RATE (its honest rounds' tx/s, default 25), E2E_FLOOD_RATE (loadgen's open-loop
// flood beside them, commits/s; unset: none; make e2e-load: 500), E2E_FLOOD_MINERS (default
// 128), E2E_LOST_AFTER (loadgen --lost-after; -1: no resend, to measure without it),
// E2E_ADVERSARY_SECONDS (the adversary's attack, default 60),
// E2E_VALSET_LOAD_SECONDS (the validator-change scenario's load, default 60),
// E2E_STATESYNC_LOAD_SECONDS (the state-sync scenario's load, default 240),
// E2E_REPORT (a JSON file for the figures of the run, default $E2E_BIN_DIR/e2e-report.json),
// GANACHE_BIN (the ganache TestGasOnGanache runs, default ../../build/npm/node_modules/.bin/ganache,
// which `make ganache` installs), E2E_REQUIRE_GANACHE=1 (fail, not skip, without it: CI).
// docs/reliability.md describes each scenario and the figures of the last run.
package e2e
