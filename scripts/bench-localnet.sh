#!/usr/bin/env bash
# make bench-localnet: validatord beside CometBFT's own kvstore on this machine.
#
# Builds bin/validatord, bin/loadgen and CometBFT's cometbft at the pinned version (kvstore is
# built in), then for every load level runs a fresh 4-validator localnet of each app on loopback
# (validatord first, then kvstore, back to back), drives it with `loadgen bench` (scripts/loadgen/bench) and stops it.
# Both networks use the same config.toml: kvstore's homes are made by `cometbft testnet --config`
# from validatord's node0 config.toml (timeout_commit 500ms, mempool size 5000, max_tx_bytes
# 16 KiB, ...), only addresses, ports, peers and monikers differ; the script checks that the
# [consensus] and [mempool] sections are identical. Per-run JSON goes to $BENCH_OUT/<level>-<app>.json
# and the table to $BENCH_OUT/table.md (and stdout).
#
# A level subnet:M is the subnet's own shape instead of one kind of transaction (loadgen bench
# --subnet M, scripts/loadgen/subnetload): M miners (at most the genesis' 256 uids) register with
# RegisterMiner transactions; every BENCH_TASK_EVERY blocks one of the 4 validators' report keys
# posts a workflow and an arena task; every miner commits to each, reveals in the reveal window
# and every validator reports every revealed submission in MsgReportBatch transactions before the
# report deadline. It is counted over whole rounds once every phase runs (the first task's
# report deadline passed, about 27 blocks after the first posts; BENCH_DURATION is the counted
# window's least length): scored submissions a second, transactions per scored submission and
# each node's CPU-seconds per scored submission. Its kvstore run then offers the tx/s and bytes/s
# that validatord's run offered (loadgen bench --match, random transactions of the mean size),
# so the table puts each validatord node's CPU per scored submission beside each kvstore node's
# CPU per transaction at the same bytes a second. Every run reads each node's CPU
# (/proc/<pid>/stat, loadgen bench --pids) over its counted window into its JSON.
#
# Environment:
#   QUICK=1                 short smoke run: levels "rate:500 inflight:32", 10s each
#   BENCH_LEVELS            space-separated levels, rate:R, inflight:N or subnet:M
#                           (default "rate:500 rate:750 inflight:8 inflight:32 inflight:128
#                           subnet:256"; QUICK=1 BENCH_LEVELS=subnet:256 for the subnet level alone,
#                           about 2 minutes)
#   BENCH_TASK_EVERY        subnet:M, blocks between two rounds of posts (default 4)
#   BENCH_DURATION          measured window per run (default 45s; QUICK 10s)
#   BENCH_DRAIN             loadgen bench --drain (default 20s; QUICK 10s)
#   BENCH_WARMUP            loadgen bench --warmup: the first part of the window not counted in tx/s
#                           (default 5s; QUICK 2s)
#   BENCH_APPS              default "validatord kvstore"
#   BENCH_ROUNDS            passes over all levels (default 1). With N > 1 each run's files get a
#                           -rK suffix and the table adds, per level, the medians of the N pairs and
#                           the range of their ratios: one pass of a saturated level can be 0.2 off
#                           the next on this machine (docs/performance.md)
#   BENCH_OUT               default bin/bench-localnet
#   BENCH_PORT              first port (default 29000, below Linux's ephemeral range 32768-60999,
#                           so no outgoing connection holds one): validatord nodes use
#                           BENCH_PORT+10i.., kvstore nodes BENCH_PORT+200+10i..
#   BENCH_ARGS              extra loadgen bench flags (e.g. --async)
#   BENCH_CONCURRENT_CHECKTX=1  validatord's nodes run with app.toml [abci] concurrent_check_tx = true
#   BENCH_CHECKTX_RUNS=0    validatord's nodes run with app.toml [abci] check_tx_runs = false
#                           (CheckTx one request at a time, CometBFT's plain local client)
#   BENCH_DURABILITY=pipelined  validatord's nodes run with app.toml [state] durability = "pipelined"
#                           (Commit hands the block's write and sync to the background)
#   BENCH_PPROF=1           node0 of each network serves pprof (BENCH_PORT+9 / +209) and a 20 s
#                           CPU profile taken 10 s into each run goes to $BENCH_OUT/<level>-<app>.cpu.pprof
set -euo pipefail
cd "$(dirname "$0")/.."

COMETBFT_VERSION=v0.39.4
out=${BENCH_OUT:-bin/bench-localnet}
port=${BENCH_PORT:-29000}
apps=${BENCH_APPS:-validatord kvstore}
if [ "${QUICK:-0}" = 1 ]; then
  levels=${BENCH_LEVELS:-rate:500 inflight:32}
  duration=${BENCH_DURATION:-10s}
  drain=${BENCH_DRAIN:-10s}
  warmup=${BENCH_WARMUP:-2s}
else
  levels=${BENCH_LEVELS:-rate:500 rate:750 inflight:8 inflight:32 inflight:128 subnet:256}
  duration=${BENCH_DURATION:-45s}
  drain=${BENCH_DRAIN:-20s}
  warmup=${BENCH_WARMUP:-5s}
fi
nval=4

log() { echo "bench-localnet: $*" >&2; }

mkdir -p bin "$out"
go build -o bin/validatord ./cmd/validatord
go build -o bin/loadgen ./scripts/loadgen
if ! [ -x bin/cometbft ] || ! bin/cometbft version 2>/dev/null | grep -qx "${COMETBFT_VERSION#v}"; then
  log "installing cometbft $COMETBFT_VERSION into bin/"
  GOBIN=$PWD/bin go install "github.com/cometbft/cometbft/cmd/cometbft@$COMETBFT_VERSION"
fi

pids=()
# stop_nodes stops every node this script started (each is its own process group, by setsid).
stop_nodes() {
  local pid i
  for pid in "${pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$pid" 2>/dev/null || true
  done
  pids=()
}
trap stop_nodes EXIT
trap 'stop_nodes; exit 130' INT TERM

# section FILE NAME prints a config.toml section without comments and blank lines.
section() { awk -v s="[$2]" '$0 == s {on = 1; print; next} /^\[/ {on = 0} on' "$1" | grep -v '^#' | grep -v '^$'; }

# make_validatord DIR / make_kvstore DIR create a fresh 4-validator network.
make_validatord() {
  rm -rf "$1"
  bin/validatord testnet --v "$nval" --output "$1" --starting-port "$port" >"$1.testnet.out"
}
make_kvstore() {
  local dir=$1 vcfg=$2 kport=$((port + 200)) i j ids=() peers
  rm -rf "$dir"
  bin/cometbft testnet --v "$nval" --o "$dir" --config "$vcfg" --starting-ip-address 127.0.0.1 \
    --populate-persistent-peers=false >/dev/null
  for ((i = 0; i < nval; i++)); do ids+=("$(bin/cometbft show-node-id --home "$dir/node$i")"); done
  for ((i = 0; i < nval; i++)); do
    peers=()
    for ((j = 0; j < nval; j++)); do
      [ "$j" = "$i" ] || peers+=("${ids[$j]}@127.0.0.1:$((kport + 10 * j))")
    done
    local cfg=$dir/node$i/config/config.toml
    # node0 of validatord's config is the template: its [rpc] and [p2p] laddr, prometheus
    # address and peers are replaced by kvstore node i's.
    sed -i \
      -e "s|^laddr = \"tcp://127.0.0.1:$((port + 1))\"|laddr = \"tcp://127.0.0.1:$((kport + 10 * i + 1))\"|" \
      -e "s|^laddr = \"tcp://127.0.0.1:$port\"|laddr = \"tcp://127.0.0.1:$((kport + 10 * i))\"|" \
      -e "s|^prometheus_listen_addr = .*|prometheus_listen_addr = \"127.0.0.1:$((kport + 10 * i + 4))\"|" \
      -e "s|^persistent_peers = .*|persistent_peers = \"$(IFS=,; echo "${peers[*]}")\"|" \
      -e "s|^moniker = .*|moniker = \"node$i\"|" "$cfg"
    grep -q "127.0.0.1:$((kport + 10 * i + 1))\"" "$cfg" || { log "kvstore node$i: rpc laddr not rewritten"; return 1; }
    grep -q "^laddr = \"tcp://127.0.0.1:$((kport + 10 * i))\"" "$cfg" || { log "kvstore node$i: p2p laddr not rewritten"; return 1; }
  done
  for s in consensus mempool; do
    if ! diff <(section "$vcfg" "$s") <(section "$dir/node0/config/config.toml" "$s") >/dev/null; then
      log "[$s] differs between validatord and kvstore"; return 1
    fi
  done
}

# launch APP HOME starts one node in its own process group and prints its pid.
launch() {
  if [ "$1" = validatord ]; then
    setsid bin/validatord start --home "$2" >>"$2/node.log" 2>&1 </dev/null &
  else
    setsid bin/cometbft start --home "$2" --proxy_app=kvstore >>"$2/node.log" 2>&1 </dev/null &
  fi
  echo $!
}

# start_nodes APP DIR starts the nodes and waits until each reports height >= 1. A port may still
# be held for a moment (by the previous run, or by an outgoing connection when BENCH_PORT lies in
# Linux's ephemeral range 32768-60999): a node that logs "address already in use" is stopped and
# started again (5 times).
start_nodes() {
  local app=$1 dir=$2 i h addr k tries pid
  local -a mine=()
  for ((i = 0; i < nval; i++)); do
    : >"$dir/node$i/node.log"
    pid=$(launch "$app" "$dir/node$i")
    pids+=("$pid"); mine+=("$pid")
  done
  for ((i = 0; i < nval; i++)); do
    addr=$(sed -n '/^\[rpc\]/,/^\[/ s|^laddr = "tcp://\(.*\)"|\1|p' "$dir/node$i/config/config.toml" | head -n1)
    tries=0 h=
    for ((k = 0; k < 240; k++)); do
      h=$(curl -s --max-time 1 "http://$addr/status" | sed -n 's/.*"latest_block_height":"\([0-9]*\)".*/\1/p' || true)
      [ -n "$h" ] && [ "$h" -ge 1 ] && break
      if grep -q "address already in use" "$dir/node$i/node.log" && ((tries < 5)); then
        # cometbft may log the failed start and linger without serving: stop it either way.
        tries=$((tries + 1))
        log "$app node$i: a port was in use; starting it again ($tries)"
        kill -KILL -- "-${mine[$i]}" 2>/dev/null || true
        sleep 1
        : >"$dir/node$i/node.log"
        pid=$(launch "$app" "$dir/node$i")
        pids+=("$pid"); mine[i]=$pid
      fi
      sleep 0.25
    done
    if [ -z "$h" ] || [ "$h" -lt 1 ]; then
      log "$app node$i: no block 1 after 60s; last lines of its log:"; tail -n 20 "$dir/node$i/node.log" >&2
      return 1
    fi
  done
  # The nodes' pids, for loadgen bench --pids (each node's CPU over the counted window): setsid
  # runs in a process that is not a group leader, so it execs the node in place and $! is the
  # node's own pid.
  for ((i = 0; i < nval; i++)); do
    case $(cat "/proc/${mine[$i]}/comm" 2>/dev/null) in
      validatord | cometbft) ;;
      *) log "$app node$i: pid ${mine[$i]} is not the node's process; no per-node CPU" ; : >"$dir/pids"; return 0 ;;
    esac
  done
  (IFS=,; echo "${mine[*]}") >"$dir/pids"
}

rm -f "$out"/*.json
# The template of both apps' config.toml: validatord testnet's node0 (never started).
make_validatord "$out/net-tmpl"
tmpl=$out/net-tmpl/node0/config/config.toml

rounds=${BENCH_ROUNDS:-1}
for ((round = 1; round <= rounds; round++)); do
  sfx=""; [ "$rounds" -gt 1 ] && sfx="-r$round"
  for lvl in $levels; do
    case $lvl in
      rate:*) flag=(--rate "${lvl#rate:}") ;;
      inflight:*) flag=(--in-flight "${lvl#inflight:}") ;;
      subnet:*) flag=(--subnet "${lvl#subnet:}" --task-every "${BENCH_TASK_EVERY:-4}") ;;
      *) log "level $lvl: want rate:R, inflight:N or subnet:M"; exit 2 ;;
    esac
    for app in $apps; do
      if [ "$app" = kvstore ] && [ "${lvl%%:*}" = subnet ]; then
        # kvstore offers the tx/s and bytes/s that validatord's run of this level offered.
        match=$out/${lvl/:/-}-validatord$sfx.json
        if ! [ -s "$match" ]; then
          log "$lvl kvstore: no validatord run of this level to match ($match); no run"; continue
        fi
        flag=(--match "$match")
      fi
      dir=$out/net-$app
      log "$lvl $app${sfx:+ (round $round of $rounds)}: fresh network in $dir"
      if [ "$app" = validatord ]; then
        make_validatord "$dir"
      else
        make_kvstore "$dir" "$tmpl"
      fi
      if [ "$app" = validatord ] && [ "${BENCH_CONCURRENT_CHECKTX:-0}" = 1 ]; then
        for ((i = 0; i < nval; i++)); do
          sed -i 's|^concurrent_check_tx = false|concurrent_check_tx = true|' "$dir/node$i/config/app.toml"
          grep -q '^concurrent_check_tx = true' "$dir/node$i/config/app.toml" || { log "node$i: app.toml not rewritten"; exit 1; }
        done
      fi
      if [ "$app" = validatord ] && [ "${BENCH_CHECKTX_RUNS:-1}" = 0 ]; then
        for ((i = 0; i < nval; i++)); do
          sed -i 's|^check_tx_runs = true|check_tx_runs = false|' "$dir/node$i/config/app.toml"
          grep -q '^check_tx_runs = false' "$dir/node$i/config/app.toml" || { log "node$i: app.toml not rewritten"; exit 1; }
        done
      fi
      if [ "$app" = validatord ] && [ "${BENCH_DURABILITY:-block}" != block ]; then
        for ((i = 0; i < nval; i++)); do
          sed -i "s|^durability = \"block\"|durability = \"$BENCH_DURABILITY\"|" "$dir/node$i/config/app.toml"
          grep -q "^durability = \"$BENCH_DURABILITY\"" "$dir/node$i/config/app.toml" || { log "node$i: app.toml not rewritten"; exit 1; }
        done
      fi
      if [ "${BENCH_PPROF:-0}" = 1 ]; then
        pport=$((port + 9)); [ "$app" = kvstore ] && pport=$((port + 209))
        sed -i "s|^pprof_laddr = .*|pprof_laddr = \"127.0.0.1:$pport\"|" "$dir/node0/config/config.toml"
      fi
      if start_nodes "$app" "$dir"; then
        if [ "${BENCH_PPROF:-0}" = 1 ]; then
          (sleep 10; curl -s --max-time 40 -o "$out/${lvl/:/-}-$app$sfx.cpu.pprof" \
            "http://127.0.0.1:$pport/debug/pprof/profile?seconds=20") &
        fi
        # shellcheck disable=SC2086
        bin/loadgen bench --app "$app" --testnet "$dir" "${flag[@]}" --pids "$(cat "$dir/pids")" --duration "$duration" --warmup "$warmup" --drain "$drain" \
          --out "$out/${lvl/:/-}-$app$sfx.json" ${BENCH_ARGS:-} || log "$lvl $app: loadgen bench failed"
      else
        log "$lvl $app: the network did not start; no run"
      fi
      stop_nodes
    done
  done
done
bin/loadgen bench table "$out" | tee "$out/table.md"
