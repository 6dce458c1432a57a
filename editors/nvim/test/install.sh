#!/usr/bin/env bash
# Installs what the Neovim tests need: Debian's neovim (0.7.2 on bookworm).
# Idempotent: does nothing when `nvim` is already on PATH.
set -euo pipefail
if command -v nvim >/dev/null 2>&1; then
  echo "nvim present: $(nvim --version | head -n 1)"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y neovim
nvim --version | head -n 1
