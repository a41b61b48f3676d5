# validatord — deterministic validator node for a scoring subnet.
# Tools come from the Go module proxy or Debian's packages and are installed by the scripts that
# need them; nothing here assumes more than Go, make and bash.

GO       ?= go
BIN      := bin/validatord
PKGS     := ./...
TEST_TIMEOUT ?= 20m
# The long scenarios (internal/longtest): `make test` skips them, `make test-long` (part of
# `make e2e`) runs them. A test that calls longtest.Skip first is named here; a test checks it.
LONG_TESTS := ^(TestPagesInChromium|TestReadmeUsingIt|TestRetentionBoundsState|TestTutorial)$$
LONG_PKGS  := ./app/ ./cmd/validatord/ ./node/leaderboard/

.PHONY: all build test test-short test-long verify fmt vet tidy-check proto proto-check detguard bench golden fuzz fuzz-long demo localnet localnet-stop e2e e2e-bins cometbft e2e-load ganache bench-localnet sim-subnet test-arm64 clean

all: build

## build: validatord, and beside it the example commands the daemons run (bin/solver, bin/price,
## bin/measure: docs/daemons.md), so that a newcomer's PATH holds them all.
EXAMPLES := ./scripts/examples/solver ./scripts/examples/price ./scripts/examples/measure
build:
	$(GO) build -o $(BIN) ./cmd/validatord
	$(GO) build -o bin/ $(EXAMPLES)

## test: the test suite (unit, golden, datadriven, fuzz seed corpora, app, real CometBFT node),
## then every benchmark once (b.N = 1), so a benchmark that no longer runs is caught. The long
## scenarios (LONG_TESTS) are skipped here and run by test-long, which e2e runs.
test:
	$(GO) vet $(PKGS)
	$(GO) test -count=1 -timeout $(TEST_TIMEOUT) $(PKGS)
	$(GO) test -count=1 -race -run 'TestQueriesDuringBlocks|TestQueryDoesNotTakeTheExecutionLock|TestCheckTxBesideBlocks|TestCheckTxDoesNotTakeTheExecutionLock|TestRecordedChain|TestPipelinedStateWhileABlockLands|TestPipelinedCommitWaitsForTheLastSync' ./app/
	$(GO) test -count=1 -race ./app/store/ ./app/parallel/ ./app/sigverify/
	# Without assembly (purego: crypto/aes's CTR stream expands the app-hash lanes, as on
	# platforms other than amd64): the recorded chain's app hashes must be the same.
	$(GO) test -count=1 -tags purego -run 'TestRecordedChain|TestLanes|TestSWARLanes' ./app/ ./app/store/
	$(GO) test -count=1 -run '^$$' -bench . -benchtime 1x $(PKGS)

## test-long: the long scenarios that `make test` skips: the tutorial and README typed into a
## shell, every leaderboard page in headless Chromium, 10,000 blocks of retention.
test-long:
	VALIDATORD_LONG_TESTS=1 $(GO) test -count=1 -timeout $(TEST_TIMEOUT) -run '$(LONG_TESTS)' $(LONG_PKGS)

test-short:
	$(GO) test -short -count=1 $(PKGS)

## verify: formatting, vet, go.mod tidiness, generated code up to date, determinism guard.
verify: fmt vet tidy-check proto-check detguard

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' | grep -v '\.pb\.go$$')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

tidy-check:
	@cp go.mod /tmp/go.mod.verify && cp go.sum /tmp/go.sum.verify && \
	$(GO) mod tidy && \
	if ! diff -q go.mod /tmp/go.mod.verify >/dev/null || ! diff -q go.sum /tmp/go.sum.verify >/dev/null; then \
		echo "go.mod/go.sum not tidy (run go mod tidy)"; cp /tmp/go.mod.verify go.mod; cp /tmp/go.sum.verify go.sum; exit 1; fi

proto:
	bash scripts/protogen.sh

proto-check:
	bash scripts/protogen.sh --check

detguard:
	$(GO) test -count=1 ./scripts/detguard/

## bench: every benchmark; figures go into docs/performance.md.
bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

## golden: regenerate the reference vectors from the Python decimal scripts (50 digits).
golden:
	python3 scripts/golden.py
	python3 scripts/golden_arena_gas.py

## fuzz: a longer fuzz run of every target (FUZZTIME each).
FUZZTIME ?= 30s
fuzz:
	bash scripts/fuzz.sh $(FUZZTIME)

## fuzz-long: the same, FUZZLONG (default 5m) each.
FUZZLONG ?= 5m
fuzz-long:
	bash scripts/fuzz.sh $(FUZZLONG)

## localnet: 4 validators of `validatord testnet` on loopback, in the background (.localnet/).
localnet:
	bash scripts/localnet.sh

localnet-stop:
	bash scripts/localnet-stop.sh

## bench-localnet: validatord beside CometBFT's kvstore, 4 validators each on loopback, the same
## open-loop load levels (QUICK=1 for a smoke run; not part of `make test`), and the
## subnet level subnet:M: M miners commit, reveal and are reported by the 4 validators in batches;
## it reports scored submissions a second, transactions and each node's CPU-seconds per scored
## submission beside kvstore's CPU-seconds per transaction at the same bytes a second
## (QUICK=1 BENCH_LEVELS=subnet:256 for that level alone; scripts/bench-localnet.sh lists the knobs).
bench-localnet:
	bash scripts/bench-localnet.sh

## sim-subnet: the subnet at its real shape in one process (internal/simsubnet): 64 validators,
## 256 miners, all three tracks, 3,000 blocks, once with one message a transaction, once with
## report batches and once with every batch form (reports, commits, reveals, truths); prints side
## by side transactions, bytes and signature checks per scored submission and per counted gas
## prediction, block times, epoch blocks and the state's size (docs/performance.md).
## SIM_FLAGS sets a smaller run, e.g. SIM_FLAGS="-blocks 720".
SIM_FLAGS ?=
sim-subnet:
	$(GO) run ./scripts/simsubnet -modes off,batch,all $(SIM_FLAGS)

## test-arm64: the recorded chain (every app hash and query answer of its golden file, block and
## pipelined) by an arm64 build under qemu-user-static: a second architecture, where the app-hash
## lanes take the Go path (Debian: apt-get install qemu-user-static; CI runs it).
test-arm64:
	@command -v qemu-aarch64-static >/dev/null || { echo "test-arm64: qemu-aarch64-static is not installed (apt-get install qemu-user-static)"; exit 1; }
	@mkdir -p bin
	GOARCH=arm64 $(GO) test -c -o bin/app-arm64.test ./app
	GOARCH=arm64 $(GO) test -c -o bin/store-arm64.test ./app/store
	cd app && qemu-aarch64-static ../bin/app-arm64.test -test.count 1 -test.run 'TestRecordedChain$$|TestValueCacheChangesNoHash$$'
	cd app/store && qemu-aarch64-static ../../bin/store-arm64.test -test.count 1

## e2e: reliability under SIGKILL of validators, crash points inside FinalizeBlock/Commit, a
## validator below 1/3 attacking (loadgen adversary), the gas track's oracles on a real EVM dev
## node (ganache from `make ganache`; skipped without it unless E2E_REQUIRE_GANACHE=1, as in
## CI), replay. The kill-and-restart scenario
## runs with a short flood (100 commits/s from 32 miners; E2E_FLOOD_RATE=0 turns it off) so CI
## checks every accepted commit is committed and no sender stays stuck; e2e-load is the full rate.
e2e: test-long e2e-bins
	E2E_FLOOD_RATE=$${E2E_FLOOD_RATE:-100} E2E_FLOOD_MINERS=$${E2E_FLOOD_MINERS:-32} $(GO) test -tags e2e -count=1 -v -timeout 45m ./scripts/e2e/

## e2e-bins: the binaries scripts/e2e runs: validatord, loadgen, the stock CometBFT (cometbft, at
## go.mod's version: its `light` proxy checks the app's proofs) and validatord-liar, a test build
## (tag liar) whose provable-store answers carry a flipped byte, for the proxy to refuse.
e2e-bins: cometbft
	$(GO) build -o bin/validatord ./cmd/validatord
	$(GO) build -tags liar -o bin/validatord-liar ./cmd/validatord
	$(GO) build -o bin/loadgen ./scripts/loadgen

## cometbft: the stock CometBFT command at the version go.mod pins (a tool of go.mod), for its
## light client proxy (docs/queries.md, "Proven queries with the stock light proxy").
cometbft:
	$(GO) build -o bin/cometbft github.com/cometbft/cometbft/cmd/cometbft

## ganache: the pinned EVM dev node (npm) that the e2e gas scenario (TestGasOnGanache) runs its
## oracles against, installed into $(NPM_DIR) (gitignored); it needs Node.js and npm (Debian:
## apt-get install nodejs npm; .ci/run installs them). Reinstalled only when the version differs.
GANACHE_VERSION := 7.9.2
NPM_DIR         := build/npm
ganache:
	@command -v npm >/dev/null || { echo "ganache: npm is not installed (Debian: apt-get install nodejs npm)"; exit 1; }
	@if [ "$$(node -p 'require("./$(NPM_DIR)/node_modules/ganache/package.json").version' 2>/dev/null)" != "$(GANACHE_VERSION)" ]; then \
		echo "npm install ganache@$(GANACHE_VERSION) into $(NPM_DIR)"; \
		mkdir -p $(NPM_DIR) && npm install --no-audit --no-fund --save-exact --prefix $(NPM_DIR) ganache@$(GANACHE_VERSION); \
	fi
	@$(NPM_DIR)/node_modules/.bin/ganache --version

## e2e-load: the kill-and-restart scenario under `loadgen flood` (not in CI):
## E2E_FLOOD_RATE commits/s (default 500) beside the honest rounds, a validator
## SIGKILLed every 20 s; every commit CheckTx took must be committed (resent if lost).
e2e-load:
	$(GO) build -o bin/validatord ./cmd/validatord
	$(GO) build -o bin/loadgen ./scripts/loadgen
	E2E_FLOOD_RATE=$${E2E_FLOOD_RATE:-500} $(GO) test -tags e2e -count=1 -v -timeout 60m -run 'TestKillRestartUnderLoad$$' ./scripts/e2e/

## demo: build, start a throw-away single-validator node, drive every track, print results.
demo: build
	VALIDATORD_BIN=$(BIN) bash scripts/demo.sh

clean:
	rm -rf bin
