#!/usr/bin/env bash
# The real-client matrix: each client, headless, drives `planls serve` on an
# approved copy of examples/basic through the setup the README documents for
# it, and must: start and show the 7 open-item diagnostics, complete #1 with
# evidence and defer #2 with a reason from the editor, see #3 completed by
# the CLI within 1 s, and shut the server down with exit code 0.
# Prints one row per client; exits non-zero when any client fails.
#   CLIENTS="nvim-0.7 nvim-0.10 nvim-0.12 nvim-plugin-0.12 eglot vim-ale ..."   (default: all)
#   PLANLS_BIN=/abs/planls
# Clients come from test/clients/install.sh (run by scripts/install-test-deps.sh).
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
CACHE=${PLANLS_TEST_CACHE:-$HOME/.cache/planls-test}
PLANLS_BIN=${PLANLS_BIN:-$REPO/bin/planls}
CLIENTS=${CLIENTS:-"nvim-0.7 nvim-0.10 nvim-0.12 nvim-plugin-0.7 nvim-plugin-0.10 nvim-plugin-0.12 eglot vim-ale"}
CLIENT_TIMEOUT=${CLIENT_TIMEOUT:-90}
SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT
export XDG_CONFIG_HOME="$SCRATCH/config" XDG_DATA_HOME="$SCRATCH/data" XDG_STATE_HOME="$SCRATCH/state" \
  XDG_CACHE_HOME="$SCRATCH/cache" HOME="$SCRATCH/home"
mkdir -p "$HOME"

# workspace NAME: an approved, committed copy of examples/basic, and a
# `planls` on PATH that records the server's exit code in $ws.rc.
workspace() {
  local ws=$SCRATCH/$1
  mkdir -p "$ws/ws" "$ws/bin"
  cp "$REPO/examples/basic/PLAN.md" "$ws/ws/PLAN.md"
  git -C "$ws/ws" init -q && git -C "$ws/ws" add PLAN.md &&
    git -C "$ws/ws" -c user.name=matrix -c user.email=matrix@example.com commit -qm "Add the limiter plan"
  "$PLANLS_BIN" --root "$ws/ws" approve >/dev/null 2>&1 || return 1
  # The server runs as a child (its stdin passed on through fd 3: an
  # asynchronous command would get /dev/null) so that its exit code is
  # recorded even when a client signals the wrapper (ALE's job_stop).
  cat >"$ws/bin/planls" <<WRAP
#!/bin/sh
[ "\$1" = serve ] || exec "$PLANLS_BIN" "\$@"
exec 3<&0
"$PLANLS_BIN" "\$@" <&3 3<&- &
pid=\$!
exec 3<&-
trap 'kill -TERM \$pid 2>/dev/null' TERM INT
wait \$pid; rc=\$?
while kill -0 \$pid 2>/dev/null; do wait \$pid; rc=\$?; done
# Written whole, then renamed: a client waiting for the file never reads it empty.
echo \$rc >"$ws/rc.tmp" && mv "$ws/rc.tmp" "$ws/rc"
exit \$rc
WRAP
  chmod +x "$ws/bin/planls"
  echo "$ws"
}

# check ROW WS: the JSON row says ok and the state on disk agrees.
check() {
  node -e '
    const fs = require("fs");
    const [row, ws] = process.argv.slice(1);
    const r = JSON.parse(fs.readFileSync(row, "utf8"));
    const st = JSON.parse(fs.readFileSync(ws + "/ws/.planls/state.json", "utf8"));
    const t = (id) => st.tasks.find((x) => x.id === id) || {};
    const bad = [];
    if (!r.ok) bad.push("client: " + r.error);
    if (r.diagnostics !== 7) bad.push("diagnostics " + r.diagnostics + ", want 7");
    if (t(1).status !== "completed" || !t(1).evidence) bad.push("#1 " + t(1).status);
    if (t(2).status !== "deferred" || !t(2).reason) bad.push("#2 " + t(2).status);
    if (t(3).status !== "completed") bad.push("#3 " + t(3).status);
    if (!(r.cli_ms < 1000)) bad.push("CLI change seen after " + r.cli_ms + " ms, want < 1000");
    // eglot 1.9 kills the server right after exit: a shutdown it saw
    // answered counts. ALE never sends shutdown: it closes the server
    // stdin and sends SIGTERM, and the server must exit 1 (LSP: no shutdown).
    const ended = (r.shutdown_answered && r.server_rc === undefined) || (r.no_shutdown_request && r.server_rc === 1);
    if (r.server_rc !== 0 && !ended) bad.push("server exit code " + r.server_rc + ", want 0");
    const cols = ["start_ms", "complete_ms", "defer_ms", "cli_ms", "shutdown_ms"].map((k) => k.replace("_ms", "") + " " + r[k] + " ms");
    cols.push("server exit " + (r.server_rc === undefined ? "by the client (SIGKILL after exit)" : r.server_rc));
    console.log((bad.length ? "FAIL " : "PASS ") + r.client + ": " + cols.join(", ") + (bad.length ? "\n  " + bad.join("\n  ") : ""));
    process.exit(bad.length ? 1 : 0);
  ' "$1" "$2"
}

nvim_for() {
  case ${1#nvim-plugin-} in
  nvim-0.7 | 0.7) command -v nvim ;;
  nvim-0.10 | 0.10) echo "$CACHE/nvim-trixie/nvim" ;;
  nvim-0.12 | 0.12) echo "$CACHE/nvim-sid/nvim" ;;
  esac
}

run_client() { # run_client NAME WS: runs the driver, writes $ws/row.json
  local name=$1 ws=$2
  export PLANLS_WS=$ws/ws PLANLS_OUT=$ws/row.json PLANLS_RC=$ws/rc PLANLS_BIN PATH="$ws/bin:$PATH"
  case $name in
  nvim-*)
    local nv; nv=$(nvim_for "$name")
    [ -x "$nv" ] || { echo "{\"client\":\"$name\",\"ok\":false,\"error\":\"not installed: run test/clients/install.sh\"}" >"$ws/row.json"; return; }
    local setup=$REPO/editors/nvim/snippets/vim-lsp.lua
    case $name in nvim-plugin-*) setup=$HERE/nvim-plugin.lua ;; esac
    PLANLS_REPO=$REPO PLANLS_SETUP_NAME=${name%-*} PLANLS_SNIPPET=$setup timeout -k 10 "$CLIENT_TIMEOUT" "$nv" --headless -u NONE -i NONE -n \
      -c "luafile $HERE/nvim.lua" </dev/null >"$ws/stdout" 2>"$ws/stderr" ;;
  eglot)
    PLANLS_EL=$REPO/editors/emacs/planls.el timeout -k 10 "$CLIENT_TIMEOUT" emacs --batch -l "$HERE/eglot.el" \
      </dev/null >"$ws/stdout" 2>"$ws/stderr" ;;
  vim-ale)
    PLANLS_VIM=$REPO/editors/vim/planls.vim timeout -k 10 "$CLIENT_TIMEOUT" vim -N -es -u "$HERE/ale.vim" -i NONE -n \
      -V1"$ws/stderr" -c 'call PlanlsMatrixRun()' "$ws/ws/PLAN.md" </dev/null >"$ws/stdout" 2>&1 ;;
  esac
  [ -s "$ws/row.json" ] || echo "{\"client\":\"$name\",\"ok\":false,\"error\":\"no result (exit $?)\"}" >"$ws/row.json"
}

failed=0
for c in $CLIENTS; do
  ws=$(workspace "$c") || { echo "FAIL $c: workspace setup"; failed=$((failed + 1)); continue; }
  start=$(date +%s%N)
  ( run_client "$c" "$ws" )
  if ! check "$ws/row.json" "$ws"; then
    failed=$((failed + 1))
    echo "  -- stderr of $c:"; tail -n 20 "$ws/stderr" 2>/dev/null | sed 's/^/  /'
  fi
  echo "  ($c: $(( ($(date +%s%N) - start) / 1000000 )) ms in all)"
done
[ "$failed" -eq 0 ]
