#!/usr/bin/env bash
# make demo: build validatord, create a throw-away single-validator home,
# start a real node in the background, drive a short load for every track
# through its RPC (scripts/loadgen demo), print the leaderboards and epoch weights,
# and stop the node. Everything lives in a temp dir removed on exit
# (DEMO_KEEP=1 keeps it). Ports, all apart from a node's defaults so the demo
# runs beside one: DEMO_RPC_PORT (36657), DEMO_P2P_PORT (36656), DEMO_PAGE_PORT
# (36680, the leaderboard page; the metrics endpoint stays off). VALIDATORD_BIN
# names a validatord built already (make demo passes bin/validatord, built by
# make build), so it is not built twice. DEMO_MINERS (10): more than 1/cap (the
# 15% per-miner cap), so the weights follow the ranking; with n × cap < 1 every
# miner sits at the cap whatever its score.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

RPC_PORT="${DEMO_RPC_PORT:-36657}"
P2P_PORT="${DEMO_P2P_PORT:-36656}"
PAGE_PORT="${DEMO_PAGE_PORT:-36680}"
MINERS="${DEMO_MINERS:-10}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/validatord-demo.XXXXXX")"
BIN="${VALIDATORD_BIN:-$WORK/validatord}"
DRIVER="$WORK/loadgen"
NODE_HOME="$WORK/home"
NODE_LOG="$WORK/node.log"
NODE_PID=""

cleanup() {
	local status=$?
	if [[ -n "$NODE_PID" ]] && kill -0 "$NODE_PID" 2>/dev/null; then
		kill -TERM "$NODE_PID" 2>/dev/null || true
		for _ in $(seq 1 100); do
			kill -0 "$NODE_PID" 2>/dev/null || break
			sleep 0.1
		done
		if kill -0 "$NODE_PID" 2>/dev/null; then
			echo "demo: node did not stop within 10s, killing it" >&2
			kill -KILL "$NODE_PID" 2>/dev/null || true
		fi
		wait "$NODE_PID" 2>/dev/null || true
	fi
	if [[ $status -ne 0 && -f "$NODE_LOG" ]]; then
		echo "demo: failed; last lines of the node log:" >&2
		tail -n 20 "$NODE_LOG" >&2 || true
	fi
	if [[ "${DEMO_KEEP:-0}" == "1" ]]; then
		echo "demo: kept $WORK" >&2
	else
		rm -rf "$WORK"
	fi
	exit $status
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [[ -n "${VALIDATORD_BIN:-}" ]]; then
	echo "demo: using $BIN; building the load tool (loadgen demo)"
else
	echo "demo: building validatord and the load tool (loadgen demo)"
	go build -o "$BIN" ./cmd/validatord
fi
go build -o "$DRIVER" ./scripts/loadgen

echo "demo: init $NODE_HOME (RPC 127.0.0.1:$RPC_PORT)"
"$BIN" init --home "$NODE_HOME" --chain-id demo-1 --moniker demo-validator \
	--rpc-laddr "tcp://127.0.0.1:$RPC_PORT" --p2p-laddr "tcp://127.0.0.1:$P2P_PORT" \
	--timeout-commit 300ms --registration-difficulty 256 --registrations-per-block 64 >/dev/null
# The leaderboard page on the demo's own port (init writes the default, 26680).
sed -i.bak "s/^laddr = .*/laddr = \"127.0.0.1:$PAGE_PORT\"/" "$NODE_HOME/config/app.toml"
rm -f "$NODE_HOME/config/app.toml.bak"
grep -q "^laddr = \"127.0.0.1:$PAGE_PORT\"" "$NODE_HOME/config/app.toml" || {
	echo "demo: could not set [leaderboard] laddr in $NODE_HOME/config/app.toml" >&2
	exit 1
}

echo "demo: starting the node (log: $NODE_LOG; leaderboard page http://127.0.0.1:$PAGE_PORT/)"
"$BIN" start --home "$NODE_HOME" >"$NODE_LOG" 2>&1 &
NODE_PID=$!

# Wait until the RPC port accepts connections, or the node has died.
for i in $(seq 1 300); do
	if ! kill -0 "$NODE_PID" 2>/dev/null; then
		echo "demo: the node exited before its RPC came up" >&2
		exit 1
	fi
	if (exec 3<>"/dev/tcp/127.0.0.1/$RPC_PORT") 2>/dev/null; then
		break
	fi
	if [[ $i -eq 300 ]]; then
		echo "demo: RPC 127.0.0.1:$RPC_PORT not up after 30s" >&2
		exit 1
	fi
	sleep 0.1
done

"$DRIVER" demo --home "$NODE_HOME" --node "tcp://127.0.0.1:$RPC_PORT" --miners "$MINERS"
