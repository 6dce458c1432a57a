#!/usr/bin/env bash
# Installs the agent suite's pinned npm packages (package-lock.json: Claude
# Code and Codex CLI, each with its linux-x64 binary) under
# $PLANLS_TEST_CACHE/agents, shared by every clone, and tmux from apt.
# Idempotent: `npm ci` runs only when the installed tree does not match the
# lock file.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${PLANLS_TEST_CACHE:-$HOME/.cache/planls-test}/agents"
if ! command -v tmux >/dev/null 2>&1; then
  echo "== apt-get install tmux"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq tmux >/dev/null
fi
mkdir -p "$cache"
if ! cmp -s "$here/package-lock.json" "$cache/node_modules/.planls-installed-lock" 2>/dev/null; then
  echo "== test/agents: npm ci into $cache (Claude Code and Codex CLI, ~760 MB)"
  cp "$here/package.json" "$here/package-lock.json" "$cache/"
  (cd "$cache" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$here/package-lock.json" "$cache/node_modules/.planls-installed-lock"
fi
