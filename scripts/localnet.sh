#!/usr/bin/env bash
# Starts the validators of `validatord testnet` as background processes on loopback ports.
#
#   scripts/localnet.sh            build, create .localnet (4 validators) if missing, start all
#   scripts/localnet.sh 2          start only node2 (e.g. after it was stopped)
#
# Each node's log is .localnet/nodeN/node.log and its pid .localnet/nodeN/validatord.pid;
# scripts/localnet-stop.sh stops them by those pids. Environment:
#   LOCALNET_DIR (default .localnet)   LOCALNET_V (default 4)   VALIDATORD (default bin/validatord)
#   LOCALNET_BUILD=0 skips `go build`  LOCALNET_WAIT (seconds to wait for block 1, default 60)
# An existing $LOCALNET_DIR is reused as it is: one created before genesis bounded blocks to
# 4 MiB is refused by `start` (consensus_params.block.max_bytes); remove it to make a new one.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${LOCALNET_DIR:-.localnet}
nval=${LOCALNET_V:-4}
bin=${VALIDATORD:-bin/validatord}
wait_s=${LOCALNET_WAIT:-60}

if [ "${LOCALNET_BUILD:-1}" != 0 ]; then
  go build -o "$bin" ./cmd/validatord
fi

if [ ! -f "$dir/node0/config/genesis.json" ]; then
  mkdir -p "$dir"
  "$bin" testnet --v "$nval" --output "$dir" >"$dir/testnet.json"
  echo "localnet: created $nval validator homes in $dir (see $dir/testnet.json)"
fi

# rpc_addr HOME prints host:port of the node's RPC listen address (the [rpc] laddr).
rpc_addr() {
  sed -n '/^\[rpc\]/,/^\[/ s|^laddr = "tcp://\(.*\)"|\1|p' "$1/config/config.toml" | head -n1
}

# alive HOME is true when HOME's pid file names a running `start --home HOME` (where /proc
# exists, its command line is checked too, so that a stale pid reused by another process
# does not count).
alive() {
  local pid
  [ -f "$1/validatord.pid" ] || return 1
  pid=$(cat "$1/validatord.pid")
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  [ -r "/proc/$pid/cmdline" ] || return 0
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "start --home $1 "
}

start_node() {
  local home=$dir/node$1
  [ -d "$home" ] || { echo "localnet: no home $home" >&2; return 1; }
  if alive "$home"; then
    echo "localnet: node$1 already running (pid $(cat "$home/validatord.pid"))"
    return 0
  fi
  # setsid: the node survives the shell that started it and ignores its terminal's Ctrl-C.
  setsid "$bin" start --home "$home" >>"$home/node.log" 2>&1 </dev/null &
  echo $! >"$home/validatord.pid"
  echo "localnet: node$1 started (pid $!, rpc $(rpc_addr "$home"), log $home/node.log)"
}

# wait_height HOME waits (bounded) until the node's RPC reports a height of at least 1.
wait_height() {
  local addr h i
  addr=$(rpc_addr "$1")
  for ((i = 0; i < wait_s * 4; i++)); do
    h=$(curl -s --max-time 1 "http://$addr/status" | sed -n 's/.*"latest_block_height":"\([0-9]*\)".*/\1/p' || true)
    if [ -n "$h" ] && [ "$h" -ge 1 ]; then
      echo "localnet: $(basename "$1") at height $h (http://$addr)"
      return 0
    fi
    if ! alive "$1"; then
      echo "localnet: $(basename "$1") exited; last lines of $1/node.log:" >&2
      tail -n 20 "$1/node.log" >&2
      return 1
    fi
    sleep 0.25
  done
  echo "localnet: $(basename "$1") not producing blocks after ${wait_s}s" >&2
  return 1
}

if [ $# -gt 0 ]; then nodes=("$@"); else
  nodes=()
  for ((i = 0; i < nval; i++)); do nodes+=("$i"); done
fi
for i in "${nodes[@]}"; do start_node "$i"; done
for i in "${nodes[@]}"; do wait_height "$dir/node$i"; done
echo "localnet: running; stop with: make localnet-stop"
