#!/usr/bin/env bash
# Regenerates proto/subnet/v1/*.pb.go from proto/subnet/v1/*.proto with
# protoc (Debian's protobuf-compiler) and protoc-gen-gocosmos (gogoproto v1.7.2,
# the version pinned in go.mod). Installs whatever is missing.
#   scripts/protogen.sh          regenerate in place
#   scripts/protogen.sh --check  regenerate into a temp dir; fail if the committed code differs
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

if ! command -v protoc >/dev/null 2>&1; then
	echo "protogen: installing protobuf-compiler" >&2
	sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
	# A fresh machine's package lists may be empty or stale: update once, then install.
	$sudo apt-get update -qq >/dev/null
	$sudo apt-get install -y -qq protobuf-compiler >/dev/null
fi
gobin="$(go env GOPATH)/bin"
if [ ! -x "$gobin/protoc-gen-gocosmos" ]; then
	echo "protogen: installing protoc-gen-gocosmos@v1.7.2" >&2
	go install github.com/cosmos/gogoproto/protoc-gen-gocosmos@v1.7.2
fi
export PATH="$gobin:$PATH"

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

protoc -I proto --gocosmos_out="$out" --gocosmos_opt=paths=source_relative proto/subnet/v1/*.proto
gofmt -w "$out/subnet/v1"

if [ "${1:-}" = "--check" ]; then
	if ! diff -r -q <(cd "$out/subnet/v1" && ls *.pb.go) <(cd proto/subnet/v1 && ls *.pb.go) >/dev/null; then
		echo "protogen: generated file set differs from proto/subnet/v1" >&2
		exit 1
	fi
	for f in "$out"/subnet/v1/*.pb.go; do
		if ! cmp -s "$f" "proto/subnet/v1/$(basename "$f")"; then
			echo "protogen: proto/subnet/v1/$(basename "$f") is stale; run scripts/protogen.sh" >&2
			exit 1
		fi
	done
	echo "protogen: generated code is up to date"
	exit 0
fi
cp "$out"/subnet/v1/*.pb.go proto/subnet/v1/
echo "protogen: regenerated proto/subnet/v1"
