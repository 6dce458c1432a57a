#!/usr/bin/env bash
# MCP inspector CLI (@modelcontextprotocol/inspector, pinned in package-lock.json)
# against the real `planls mcp` over stdio. Prints "N passed, M failed" and
# exits non-zero on any mismatch.
#
#   PLANLS_BIN=/abs/path/planls test/mcp-inspector/run.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
bin="${PLANLS_BIN:-$repo/bin/planls}"
if [[ ! -x "$bin" ]]; then
  echo "planls binary not found at $bin: run 'go build -o bin/planls ./cmd/planls' or set PLANLS_BIN" >&2
  exit 2
fi
command -v node >/dev/null || { echo "node is required (node 20)" >&2; exit 2; }

# npm ci only when the installed tree does not match the lock file, so a
# second run costs nothing.
cd "$here"
if ! cmp -s package-lock.json node_modules/.planls-installed-lock 2>/dev/null; then
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json node_modules/.planls-installed-lock
fi

PLANLS_BIN="$bin" node "$here/run.mjs"
