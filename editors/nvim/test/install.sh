#!/usr/bin/env bash
# Installs what the Neovim tests need: Debian's neovim (0.7.2 on bookworm)
# and lua-check (luacheck, the lint run.sh runs). Idempotent: installs only
# what is missing, and nothing when both are on PATH.
set -euo pipefail
need=()
command -v nvim >/dev/null 2>&1 || need+=(neovim)
command -v luacheck >/dev/null 2>&1 || need+=(lua-check)
if [ "${#need[@]}" -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update
  $SUDO apt-get install -y "${need[@]}"
fi
echo "nvim: $(nvim --version | head -n 1); luacheck: $(luacheck --version | head -n 1)"
