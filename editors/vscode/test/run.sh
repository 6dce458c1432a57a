#!/usr/bin/env bash
# Runs the VS Code extension's tests: installs the test tools (outside the
# repo), npm ci, TypeScript build, unit tests, .vsix build, and the e2e test
# in code-server + headless Chromium. Exits non-zero on any failure.
# Env: PLANLS_BIN (absolute path; default <repo>/bin/planls, built when
# missing), PLANLS_TEST_CACHE, SKIP_INSTALL=1, SKIP_E2E=1.
set -euo pipefail
cd "$(dirname "$0")/.."
ext=$PWD
repo=$(cd ../.. && pwd)
t0=$SECONDS
say() { printf '== %s (%ds)\n' "$*" $((SECONDS - t0)); }

if [ -z "${SKIP_INSTALL:-}" ]; then
	say "test dependencies"
	scripts/install-test-deps.sh
fi

# npm ci wipes node_modules; skip it when the installed tree already matches
# the lockfile (the hash is stored after each successful ci).
lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat node_modules/.planls-lock-sum 2>/dev/null || true)" != "$lock_sum" ]; then
	say "npm ci"
	npm ci --ignore-scripts --no-audit --no-fund
	echo "$lock_sum" >node_modules/.planls-lock-sum
fi

say "compile"
rm -rf out
npm run -s compile

say "unit tests"
npm run -s test:unit

say "build .vsix"
vsix=$(scripts/build-vsix.sh)

if [ -n "${SKIP_E2E:-}" ]; then
	say "e2e skipped (SKIP_E2E)"
	exit 0
fi
export PLANLS_BIN=${PLANLS_BIN:-$repo/bin/planls}
if [ ! -x "$PLANLS_BIN" ]; then
	say "go build -o $PLANLS_BIN ./cmd/planls"
	(cd "$repo" && go build -o "$PLANLS_BIN" ./cmd/planls)
fi
say "e2e in code-server"
# A real workbench drops an occasional click that lands on a re-render. One
# whole-run retry keeps that from failing CI; a real fault fails both runs,
# and the first run's screenshots and logs are kept beside the second's.
if ! node "$ext/test/e2e/e2e.js" "$vsix"; then
	out=$repo/test-output/vscode
	if [ -d "$out" ]; then rm -rf "$out-attempt1" && cp -r "$out" "$out-attempt1"; fi
	say "e2e attempt 1 failed (logs in $out-attempt1); retrying once"
	node "$ext/test/e2e/e2e.js" "$vsix"
fi
say "all VS Code tests passed"
