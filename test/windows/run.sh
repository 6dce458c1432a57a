#!/usr/bin/env bash
# Runs planls as a Windows program under Wine (Debian's wine64 8.0): the
# store, core and planparse tests built for windows/amd64, then the CLI
# (planls.exe) through approve, todo, check, status and verify on a plan.
# Wine 8 cannot start a Go 1.22+ binary by itself (no bcryptprimitives.dll);
# the shim in this directory provides its one function. The store tests are
# built with the "wine" tag (store/wine_windows_test.go: Wine's file deletion
# and symbolic links). The CLI's own test suite needs sh and git as Windows
# programs and does not run here (docs/DEVELOPING.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
REPO=$PWD
cache=${PLANLS_TEST_CACHE:-$HOME/.cache/planls-test}/wine
mkdir -p "$cache"
wine=$(command -v wine64 || echo /usr/lib/wine/wine64)
[ -x "$wine" ] || { echo "wine64 is not installed (scripts/install-test-deps.sh)"; exit 1; }
export WINEPREFIX=$cache/prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
dll=$cache/bcryptprimitives.dll
if [ ! -f "$dll" ] || [ test/windows/bcryptprimitives.c -nt "$dll" ]; then
  x86_64-w64-mingw32-gcc -shared -O2 -o "$dll" test/windows/bcryptprimitives.c -ladvapi32
fi
if [ ! -d "$WINEPREFIX/drive_c/windows/system32" ]; then
  echo "== a Wine prefix in $WINEPREFIX"
  "$wine" wineboot --init >/dev/null 2>&1 || true
fi
cp "$dll" "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"

bin=$cache/bin
mkdir -p "$bin"
export GOOS=windows GOARCH=amd64 CGO_ENABLED=0
go test -c -tags wine -ldflags=-checklinkname=0 -o "$bin/store.test.exe" ./store
go test -c -o "$bin/core.test.exe" ./core
go test -c -o "$bin/planparse.test.exe" ./planparse
go build -o "$bin/planls.exe" ./cmd/planls
unset GOOS GOARCH

status=0
for pkg in store core planparse; do
  echo "-- go test ./$pkg (windows/amd64 under Wine)"
  if (cd "$pkg" && "$wine" "$bin/$pkg.test.exe" -test.short > "$cache/$pkg.log" 2>&1); then
    echo "ok   ./$pkg"
  else
    status=1; echo "FAIL ./$pkg"; tail -40 "$cache/$pkg.log"
  fi
done

echo "-- planls.exe (windows/amd64 under Wine)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp examples/basic/PLAN.md "$work/PLAN.md"
mkdir "$work/.git"
planls() { (cd "$work" && "$wine" "$bin/planls.exe" "$@" 2>&1 | tr -d '\r'); }
expect() { # expect WHAT PATTERN OUTPUT
  if printf '%s\n' "$3" | grep -q -- "$2"; then echo "ok   $1"; else status=1; echo "FAIL $1: no \"$2\" in:"; printf '%s\n' "$3"; fi
}
expect "approve" '^Approved plan' "$(planls approve)"
expect "todo start" '^Updated #1' "$(planls todo start 1)"
expect "todo complete" '^Updated #1' "$(planls todo complete 1 --evidence 'PLAN.md:3')"
expect "todo list" '\[completed\] #1' "$(planls todo list)"
expect "check" 'open plan item #2' "$(planls check || true)"
expect "status" 'plan items' "$(planls status)"
expect "verify" 'plan item #1 verified: file PLAN.md' "$(planls verify)"
expect "state file" '"status": "completed"' "$(cat "$work/.planls/state.json")"
exit $status
