#!/usr/bin/env bash
# Installs the real-client matrix (test/clients/run.sh): Debian's Emacs with
# elpa-eglot and elpa-markdown-mode, Vim with vim-ale, and Neovim 0.10 and
# 0.12 from trixie and sid in private trees under $PLANLS_TEST_CACHE
# (install-nvim.sh). Neovim 0.7 is bookworm's, installed by
# editors/nvim/test/install.sh. Idempotent: quick when all is in place.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
need=()
for p in emacs-nox elpa-eglot elpa-markdown-mode vim vim-ale; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "== apt-get install ${need[*]}"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
"$HERE/install-nvim.sh" trixie
"$HERE/install-nvim.sh" sid
