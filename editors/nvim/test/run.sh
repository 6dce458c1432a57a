#!/usr/bin/env bash
# Runs every Neovim spec (test/*_spec.lua) headless, each in its own nvim,
# against ${PLANLS_BIN:-$REPO/bin/planls}. Prints one PASS/FAIL line per
# test and a final "N passed, M failed"; exits non-zero on any failure.
#   PLANLS_BIN=/abs/planls  binary under test
#   PLANLS_SPEC=render      run only specs whose name contains this
#   PLANLS_UPDATE_GOLDEN=1  rewrite test/golden/* instead of comparing
#   PLANLS_NVIM=/abs/nvim   the Neovim to run (default: nvim on PATH)
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
NVIM_DIR="$(cd "$HERE/.." && pwd)"
REPO="$(cd "$NVIM_DIR/../.." && pwd)"
export PLANLS_NVIM_DIR="$NVIM_DIR"
export PLANLS_BIN="${PLANLS_BIN:-$REPO/bin/planls}"
export PLANLS_REPO="$REPO"
NVIM="${PLANLS_NVIM:-nvim}"
SPEC_TIMEOUT="${PLANLS_SPEC_TIMEOUT:-180}"

if ! command -v "$NVIM" >/dev/null 2>&1; then
  echo "nvim not found: run $HERE/install.sh" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
if [ ! -x "$PLANLS_BIN" ]; then
  echo "warning: $PLANLS_BIN is not executable; end-to-end specs will fail (go build -o bin/planls ./cmd/planls)" >&2
fi

# Keep Neovim's own files (lsp.log, shada, state) out of $HOME and the repo.
SCRATCH="$(mktemp -d)"
trap 'rm -rf "$SCRATCH"' EXIT
export XDG_CONFIG_HOME="$SCRATCH/config" XDG_DATA_HOME="$SCRATCH/data" \
  XDG_STATE_HOME="$SCRATCH/state" XDG_CACHE_HOME="$SCRATCH/cache" TMPDIR="$SCRATCH"

passed=0
failed=0

# Lint first when luacheck is there (install.sh installs Debian's lua-check).
if command -v luacheck >/dev/null 2>&1 && [ -z "${PLANLS_SPEC:-}" ]; then
  echo "== luacheck"
  if (cd "$NVIM_DIR" && luacheck --no-color -q lua test snippets ../../test/clients/nvim.lua ../../test/clients/nvim-plugin.lua); then
    echo "PASS luacheck"
    passed=$((passed + 1))
  else
    echo "FAIL luacheck"
    failed=$((failed + 1))
  fi
fi
for spec in "$HERE"/*_spec.lua; do
  name="$(basename "$spec" .lua)"
  if [ -n "${PLANLS_SPEC:-}" ] && [[ "$name" != *"$PLANLS_SPEC"* ]]; then continue; fi
  echo "== $name"
  out="$SCRATCH/$name.out"
  start=$SECONDS
  # A Neovim sent SIGTERM can hang in its exit path (0.7.2 was seen idle in
  # epoll_wait for 10 minutes after "Vim: Finished."): KILL it 10 s later.
  timeout -k 10 "$SPEC_TIMEOUT" "$NVIM" --headless --noplugin -i NONE -n -u "$HERE/minimal_init.lua" \
    -c "lua local ok, e = pcall(dofile, [[$spec]]); if not ok then io.stdout:write('FAIL $name (load): ' .. tostring(e) .. '\\n'); vim.cmd('cquit! 1') end" \
    >"$out" 2>"$SCRATCH/$name.err" </dev/null
  rc=$?
  cat "$out"
  # The time of each spec: a slow or stuck one shows by name.
  echo "-- $name: $((SECONDS - start)) s"
  p=$(grep -c '^PASS ' "$out" || true)
  f=$(grep -c '^FAIL ' "$out" || true)
  passed=$((passed + p))
  failed=$((failed + f))
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    # Crashed, timed out or quit before reporting: count the spec as failed.
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
      echo "FAIL $name: timed out after $SPEC_TIMEOUT s (PLANLS_SPEC_TIMEOUT)"
    else
      echo "FAIL $name: nvim exited with $rc before reporting a failure"
    fi
    failed=$((failed + 1))
  fi
  if [ "$rc" -ne 0 ] && [ -s "$SCRATCH/$name.err" ]; then
    echo "-- stderr of $name:"
    tail -n 40 "$SCRATCH/$name.err"
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
