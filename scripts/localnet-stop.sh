#!/usr/bin/env bash
# Stops the localnet validators started by scripts/localnet.sh, by their own pid files:
# SIGTERM, then SIGKILL after LOCALNET_STOP_WAIT seconds (default 15).
#
#   scripts/localnet-stop.sh        stop every node of .localnet
#   scripts/localnet-stop.sh 1 3    stop node1 and node3
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${LOCALNET_DIR:-.localnet}
wait_s=${LOCALNET_STOP_WAIT:-15}

# ours PID HOME is true when PID is alive and, where /proc exists, is `start --home HOME`
# (a stale pid file may name another process by now).
ours() {
  kill -0 "$1" 2>/dev/null || return 1
  [ -r "/proc/$1/cmdline" ] || return 0
  tr '\0' ' ' <"/proc/$1/cmdline" | grep -qF -- "start --home $2 "
}

stop_node() {
  local pidfile=$1/validatord.pid pid i
  [ -f "$pidfile" ] || return 0
  pid=$(cat "$pidfile")
  if [ -n "$pid" ] && ours "$pid" "$1"; then
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < wait_s * 10; i++)); do
      ours "$pid" "$1" || break
      sleep 0.1
    done
    if ours "$pid" "$1"; then
      echo "localnet: $(basename "$1") ignored SIGTERM for ${wait_s}s, sending SIGKILL" >&2
      kill -KILL "$pid" 2>/dev/null || true
    fi
    echo "localnet: $(basename "$1") stopped (pid $pid)"
  fi
  rm -f "$pidfile"
}

if [ $# -gt 0 ]; then
  for i in "$@"; do stop_node "$dir/node$i"; done
else
  shopt -s nullglob
  for home in "$dir"/node*; do stop_node "$home"; done
fi
