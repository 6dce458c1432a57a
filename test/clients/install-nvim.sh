#!/usr/bin/env bash
# Installs Neovim from another Debian suite without touching the system:
# apt-get download of neovim and its libraries (with their own libc) from
# SUITE (trixie: 0.10.x, sid: 0.12.x), dpkg -x into
# $PLANLS_TEST_CACHE/nvim-SUITE/root, and a wrapper $PLANLS_TEST_CACHE/nvim-SUITE/nvim
# that runs that nvim through that tree's own dynamic loader (Debian builds
# look for the tree-sitter parsers in /usr/lib/nvim: the wrapper adds the
# tree's copy to runtimepath).
# Usage: test/clients/install-nvim.sh trixie|sid   (idempotent)
set -euo pipefail
SUITE=${1:?usage: install-nvim.sh SUITE}
CACHE=${PLANLS_TEST_CACHE:-$HOME/.cache/planls-test}
D=$CACHE/nvim-$SUITE
if [ -x "$D/nvim" ] && "$D/nvim" --headless --version >/dev/null 2>&1; then
  echo "nvim-$SUITE: $("$D/nvim" --version | head -n 1)"
  exit 0
fi
rm -rf "$D"
mkdir -p "$D/apt/lists/partial" "$D/apt/cache/archives/partial" "$D/debs" "$D/root"
echo "deb http://deb.debian.org/debian $SUITE main" >"$D/apt/sources.list"
# A private apt: its own source list, lists and cache; the system's status
# file is not consulted, so every library comes from SUITE.
APT=(-q -o "Dir::Etc::SourceList=$D/apt/sources.list" -o Dir::Etc::SourceParts=/nonexistent
  -o "Dir::State::Lists=$D/apt/lists" -o "Dir::Cache=$D/apt/cache" -o Dir::State::Status=/dev/null
  -o Acquire::Languages=none -o Debug::NoLocking=1)
apt-get "${APT[@]}" update 2>&1 | grep -v unsandboxed >&2 || true
pkgs=(neovim neovim-runtime libc6 libgcc-s1 libluajit-5.1-2 libluajit-5.1-common libunibilium4
  libuv1t64 lua-lpeg lua-luv)
for p in libmsgpack-c2 libvterm0 libutf8proc3 libtermkey1; do
  if apt-cache "${APT[@]}" show "$p" >/dev/null 2>&1; then pkgs+=("$p"); fi
done
# The tree-sitter library neovim links (libtree-sitter0.22, 0.25, ...).
ts=$(apt-cache "${APT[@]}" depends neovim | sed -n 's/.*Depends: \(libtree-sitter[0-9.]*\).*/\1/p' | head -n 1)
pkgs+=("$ts")
(cd "$D/debs" && apt-get "${APT[@]}" download "${pkgs[@]}" 2>&1 | grep -v unsandboxed >&2 || true)
for deb in "$D"/debs/*.deb; do dpkg -x "$deb" "$D/root"; done
R=$D/root
cat >"$D/nvim" <<WRAP
#!/bin/sh
# Neovim from Debian $SUITE with its own libc (test/clients/install-nvim.sh).
export VIM="$R/usr/share/nvim" VIMRUNTIME="$R/usr/share/nvim/runtime"
export LUA_CPATH="$R/usr/lib/x86_64-linux-gnu/lua/5.1/?.so;\${LUA_CPATH:-;;}"
exec "$R/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" --library-path "$R/usr/lib/x86_64-linux-gnu" "$R/usr/bin/nvim" --cmd "set rtp+=$R/usr/lib/nvim" "\$@"
WRAP
chmod +x "$D/nvim"
rm -rf "$D/debs" "$D/apt"
echo "nvim-$SUITE: $("$D/nvim" --version | head -n 1)"
