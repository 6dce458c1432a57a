#!/usr/bin/env bash
# Installs everything the test suites need on a Debian machine with Go and node:
# Debian's neovim and chromium (and code-server's build deps), wine64 and
# mingw-w64 (the Windows suite), staticcheck, and
# each suite's pinned npm packages. Idempotent: quick when all is in place.
# Tools live under $PLANLS_TEST_CACHE (default ~/.cache/planls-test), never in the repo.
set -euo pipefail
cd "$(dirname "$0")/.."
export PLANLS_TEST_CACHE=${PLANLS_TEST_CACHE:-$HOME/.cache/planls-test}
export DEBIAN_FRONTEND=noninteractive
mkdir -p "$PLANLS_TEST_CACHE/bin"

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi

need_apt=()
command -v nvim >/dev/null 2>&1 || need_apt+=(neovim)
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
command -v git >/dev/null 2>&1 || need_apt+=(git)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "== apt-get install ${need_apt[*]}"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# Windows programs under Wine (test/windows/run.sh): Debian's wine64 and the
# mingw-w64 compiler for its one-function shim DLL.
need_win=()
command -v wine64 >/dev/null 2>&1 || [ -x /usr/lib/wine/wine64 ] || need_win+=(wine64)
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || need_win+=(gcc-mingw-w64-x86-64-win32)
if [ ${#need_win[@]} -gt 0 ]; then
  echo "== apt-get install ${need_win[*]}"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${need_win[@]}" >/dev/null
fi

if [ ! -x "$PLANLS_TEST_CACHE/bin/staticcheck" ]; then
  echo "== staticcheck v0.8.2"
  GOBIN="$PLANLS_TEST_CACHE/bin" go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
fi

if [ -x editors/nvim/test/install.sh ]; then editors/nvim/test/install.sh; fi
if [ -x test/clients/install.sh ]; then test/clients/install.sh; fi
if [ -x editors/vscode/scripts/install-test-deps.sh ]; then editors/vscode/scripts/install-test-deps.sh; fi
if [ -x agents/pi/test/install.sh ]; then agents/pi/test/install.sh; fi
if [ -x test/report-browser/install.sh ]; then test/report-browser/install.sh; fi
if [ -x test/agents/install.sh ]; then test/agents/install.sh; fi
echo "== test dependencies in place"
