#!/usr/bin/env bash
# Runs every native fuzz target of the module for the given time each (default 30s).
set -euo pipefail
t=${1:-30s}
cd "$(dirname "$0")/.."
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  targets=$(grep -hoE '^func (Fuzz[A-Za-z0-9_]+)\(f \*testing\.F\)' "$dir"/*_test.go 2>/dev/null | sed -E 's/^func (Fuzz[A-Za-z0-9_]+).*/\1/' | sort -u || true)
  for ft in $targets; do
    echo "== $pkg $ft ($t)"
    go test -run '^$' -fuzz "^${ft}\$" -fuzztime "$t" "$pkg"
  done
done
