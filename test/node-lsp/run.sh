#!/usr/bin/env bash
# The node LSP client scenario: vscode-languageserver-protocol (pinned in
# package-lock.json) drives `$PLANLS_BIN serve` over stdio.
#
#   PLANLS_BIN=/abs/path/planls test/node-lsp/run.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
export PLANLS_BIN="${PLANLS_BIN:-$repo/bin/planls}"
if [[ ! -x "$PLANLS_BIN" ]]; then
  echo "planls binary not found at $PLANLS_BIN: run 'go build -o bin/planls ./cmd/planls' or set PLANLS_BIN" >&2
  exit 2
fi
command -v node >/dev/null || { echo "node is required (node 20)" >&2; exit 2; }

cd "$here"
if ! cmp -s package-lock.json node_modules/.planls-installed-lock 2>/dev/null; then
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json node_modules/.planls-installed-lock
fi

node --test --test-reporter=spec lsp.test.js field.test.js
