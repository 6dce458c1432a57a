#!/usr/bin/env bash
# Runs every planls test: installs what the tests need, then the Go suites
# (gofmt, vet, a cross-build and vet for windows/amd64 and darwin/arm64,
# staticcheck, go test -race, short fuzzing), Neovim (0.7, 0.10,
# 0.12), the real-client matrix (Neovim, eglot, Vim+ALE), the node LSP
# client, the MCP inspector, VS Code (code-server + Chromium), pi (agents/pi)
# the plan report in Chromium, the real Claude Code and Codex CLI with the
# planls plugin (test/agents), and windows/amd64 builds under Wine (test/windows).
# Usage: scripts/test.sh            everything
#        SKIP_INSTALL=1 scripts/test.sh   skip the install step
#        SUITES="go nvim" scripts/test.sh only some suites (go nvim clients node mcp vscode pi report agents windows)
set -uo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
export PLANLS_TEST_CACHE=${PLANLS_TEST_CACHE:-$HOME/.cache/planls-test}
export PATH="$PLANLS_TEST_CACHE/bin:$PATH"
SUITES=${SUITES:-"go nvim clients node mcp vscode pi report agents windows"}
# A count, not a duration: with a duration Go 1.26's fuzz coordinator can fail
# a target with a bare "context deadline exceeded" when the time runs out
# (go.dev/issue/75804, fixed in Go 1.27); a count has no deadline to race.
FUZZTIME=${FUZZTIME:-100000x}

if [ -z "${SKIP_INSTALL:-}" ]; then
  scripts/install-test-deps.sh || { echo "install failed"; exit 1; }
fi

CGO_ENABLED=0 go build -o bin/planls ./cmd/planls || { echo "build failed"; exit 1; }
export PLANLS_BIN=$REPO/bin/planls

passed=0 failed=0 failures=()
suite() { # suite NAME COMMAND...
  local name=$1; shift
  echo; echo "===== $name"
  local start=$SECONDS
  if "$@"; then
    passed=$((passed + 1)); echo "===== $name: ok ($((SECONDS - start)) s)"
  else
    failed=$((failed + 1)); failures+=("$name"); echo "===== $name: FAILED ($((SECONDS - start)) s)"
  fi
}
has() { case " $SUITES " in *" $1 "*) return 0 ;; esac; return 1; }

gofmt_clean() { local out; out=$(gofmt -l $(git ls-files '*.go') 2>&1); [ -z "$out" ] || { echo "gofmt would change:"; echo "$out"; return 1; }; }
# Built binaries and installs must never reach git (submissions have a size limit).
repo_hygiene() {
  local big
  big=$(git ls-files -z | xargs -0 -r du -k 2>/dev/null | awk '$1 > 1024 {print $2" ("$1" KB)"}')
  [ -z "$big" ] || { echo "tracked files over 1 MB (build outputs belong in bin/):"; echo "$big"; return 1; }
}
fuzz_short() {
  go test -run '^$' -fuzz '^FuzzParse$' -fuzztime "$FUZZTIME" ./planparse &&
  go test -run '^$' -fuzz '^FuzzCall$' -fuzztime "$FUZZTIME" ./core &&
  # The MCP stdio guard's line splitting and checks in front of the SDK.
  go test -run '^$' -fuzz '^FuzzStdioLine$' -fuzztime 20000x ./mcp
}

# The binary and every package (tests included, through vet) for the other
# systems users run: nothing here can run them, so they are built and vetted.
cross_build() {
  local t
  for t in windows/amd64 darwin/arm64; do
    echo "-- $t"
    GOOS=${t%/*} GOARCH=${t#*/} CGO_ENABLED=0 go build -o /dev/null ./cmd/planls &&
      GOOS=${t%/*} GOARCH=${t#*/} CGO_ENABLED=0 go vet ./... || return 1
  done
}

if has go; then
  suite "repo hygiene" repo_hygiene
  suite gofmt gofmt_clean
  suite "go vet" go vet ./...
  suite "cross-build and vet (windows/amd64, darwin/arm64)" cross_build
  suite staticcheck staticcheck ./...
  suite "go test -race" go test -race -count=1 -timeout 15m ./...
  suite "fuzz ($FUZZTIME each)" fuzz_short
fi
has nvim && [ -x editors/nvim/test/run.sh ] && suite neovim editors/nvim/test/run.sh
# The plugin on Debian trixie's and sid's Neovim too (test/clients/install-nvim.sh).
for v in trixie:0.10 sid:0.12; do
  nv=$PLANLS_TEST_CACHE/nvim-${v%%:*}/nvim
  has nvim && [ -x "$nv" ] && suite "neovim ${v#*:}" env PLANLS_NVIM="$nv" editors/nvim/test/run.sh
done
# Real clients with the setup the README documents for each (test/clients/run.sh).
has clients && [ -x test/clients/run.sh ] && suite "real clients" test/clients/run.sh
has node && [ -x test/node-lsp/run.sh ] && suite "node LSP client" test/node-lsp/run.sh
has mcp && [ -x test/mcp-inspector/run.sh ] && suite "MCP inspector" test/mcp-inspector/run.sh
has vscode && [ -x editors/vscode/test/run.sh ] && suite "VS Code" editors/vscode/test/run.sh
has pi && [ -x agents/pi/test/run.sh ] && suite "pi" agents/pi/test/run.sh
# planls report in Debian's chromium: what a person sees, hostile text, axe-core.
has report && [ -x test/report-browser/run.sh ] && suite "report in Chromium" test/report-browser/run.sh
has agents && [ -x test/agents/run.sh ] && suite "Claude Code and Codex" test/agents/run.sh
# The store, core and planparse tests and the CLI as Windows programs (Wine).
has windows && [ -x test/windows/run.sh ] && suite "windows/amd64 under Wine" test/windows/run.sh

echo
[ $failed -gt 0 ] && echo "failed suites: ${failures[*]}"
echo "suites: $passed passed, $failed failed"
[ $failed -eq 0 ]
