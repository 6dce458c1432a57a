#!/usr/bin/env bash
# Installs what the report's browser test needs: Debian's chromium (when
# missing) and the pinned npm packages of package-lock.json (playwright-core,
# which never downloads a browser, and axe-core) into node_modules/ here.
# Idempotent: quick when the installed tree matches the lockfile.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v chromium >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  echo "== apt-get install chromium"
  $SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
fi
if ! cmp -s package-lock.json node_modules/.planls-installed-lock 2>/dev/null; then
  echo "== npm ci (test/report-browser: playwright-core, axe-core)"
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
  cp package-lock.json node_modules/.planls-installed-lock
fi
