#!/usr/bin/env bash
# The plan report in real Chromium (Debian's, headless, driven by the pinned
# playwright-core): a generated project with a history, its `planls report`
# opened from disk; what a person sees, hostile text, keyboard use, axe-core.
# Screenshots go to test-output/report-browser/.
#
#   PLANLS_BIN=/abs/path/planls test/report-browser/run.sh
# install.sh runs first: quick when chromium and node_modules are in place.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
export PLANLS_BIN="${PLANLS_BIN:-$repo/bin/planls}"
if [[ ! -x "$PLANLS_BIN" ]]; then
  echo "planls binary not found at $PLANLS_BIN: run 'go build -o bin/planls ./cmd/planls' or set PLANLS_BIN" >&2
  exit 2
fi
"$here/install.sh"
export PLANLS_TEST_OUT="${PLANLS_TEST_OUT:-$repo/test-output/report-browser}"
rm -rf "$PLANLS_TEST_OUT" && mkdir -p "$PLANLS_TEST_OUT"
cd "$here"
node --test --test-reporter=spec report.test.mjs
