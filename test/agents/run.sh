#!/usr/bin/env bash
# The agent suite: the pinned Claude Code and Codex CLI with planls's plugin,
# each driven by a scripted model on 127.0.0.1 (Claude Code's TUI under
# tmux). node's test runner, test/agents/*.test.mjs.
#
#   PLANLS_BIN=/abs/path/planls test/agents/run.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
export PLANLS_BIN="${PLANLS_BIN:-$repo/bin/planls}"
if [[ ! -x "$PLANLS_BIN" ]]; then
  echo "planls binary not found at $PLANLS_BIN: run 'go build -o bin/planls ./cmd/planls' or set PLANLS_BIN" >&2
  exit 2
fi
"$here/install.sh"
bins="${PLANLS_TEST_CACHE:-$HOME/.cache/planls-test}/agents/node_modules/.bin"
echo "$("$bins/claude" --version), $("$bins/codex" --version 2>/dev/null | tail -1), tmux $(tmux -V)"
cd "$here"
node --test --test-reporter=spec --test-concurrency=1 ./*.test.mjs
