#!/usr/bin/env bash
# Installs what the VS Code end-to-end test needs, outside the repository:
#   - Debian packages: build tools and headers for code-server's native modules,
#     ripgrep (code-server's own ripgrep download needs GitHub), chromium, a font
#     for its screenshots, and git;
#   - code-server 4.100.3 (the last release that accepts node 20) into
#     $PLANLS_TEST_CACHE/codeserver;
#   - playwright-core (pinned, no browser download) into $PLANLS_TEST_CACHE/e2e.
# Only Debian apt and the npm registry are needed. Idempotent: each part
# leaves a stamp and is skipped when its stamp matches, so a warm run takes
# well under a second.
set -euo pipefail

CODE_SERVER_VERSION=4.100.3
PLAYWRIGHT_VERSION=1.65.1
CACHE=${PLANLS_TEST_CACHE:-$HOME/.cache/planls-test}
CS_DIR=$CACHE/codeserver
E2E_DIR=$CACHE/e2e
APT_PACKAGES=(build-essential python3 pkg-config libkrb5-dev libxkbfile-dev libsecret-1-dev libx11-dev ripgrep chromium fonts-dejavu-core git)

export DEBIAN_FRONTEND=noninteractive
# The global npmrc says yes=false; node-pty's postinstall runs `npx node-gyp`.
export npm_config_yes=true
# code-server's postinstall refuses to run as root without it.
export npm_config_unsafe_perm=true

log() { printf '[install-test-deps] %s\n' "$*" >&2; }

# Native builds are chatty; their output goes to a log that is shown only
# when a step fails.
LOG=$CACHE/install.log
quiet() {
	mkdir -p "$CACHE"
	printf '\n$ %s\n' "$*" >>"$LOG"
	if ! "$@" >>"$LOG" 2>&1; then
		log "failed: $* (last lines of $LOG follow)"
		tail -n 40 "$LOG" >&2
		return 1
	fi
}

sudo_if_needed() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

install_apt() {
	local missing=()
	for p in "${APT_PACKAGES[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "apt: installing ${missing[*]}"
	# Other users of this machine may hold the dpkg lock; wait instead of failing.
	quiet sudo_if_needed apt-get -o DPkg::Lock::Timeout=900 update -q
	quiet sudo_if_needed apt-get -o DPkg::Lock::Timeout=900 install -y -q --no-install-recommends "${missing[@]}"
}

install_code_server() {
	local stamp=$CS_DIR/.planls-stamp
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$CODE_SERVER_VERSION" ] && [ -x "$CS_DIR/node_modules/.bin/code-server" ]; then
		return 0
	fi
	log "code-server $CODE_SERVER_VERSION -> $CS_DIR (a few minutes)"
	rm -f "$stamp"
	mkdir -p "$CS_DIR"
	cd "$CS_DIR"
	[ -f package.json ] || printf '{"name":"planls-codeserver","private":true}\n' >package.json
	# Scripts off: code-server's postinstall would fetch ripgrep from GitHub.
	quiet npm install --no-audit --no-fund --ignore-scripts "code-server@$CODE_SERVER_VERSION"
	# The one native top-level dependency; without it code-server cannot start.
	quiet npm rebuild argon2 --foreground-scripts
	cd node_modules/code-server/lib/vscode
	quiet npm install --no-audit --no-fund --omit=dev --ignore-scripts
	# @vscode/ripgrep's postinstall skips its download when bin/ exists.
	mkdir -p node_modules/@vscode/ripgrep/bin
	ln -sf "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
	quiet npm rebuild --foreground-scripts
	ln -sfn node_modules node_modules.asar
	(cd bin/remote-cli && ln -sf code-linux.sh code-server)
	(cd bin/helpers && ln -sf browser-linux.sh browser.sh)
	(cd extensions && quiet npm install --no-audit --no-fund --omit=dev)
	# A smoke start; the XDG dirs and --config keep it from writing to ~/.config and ~/.local.
	local scratch
	scratch=$(mktemp -d)
	quiet env XDG_CONFIG_HOME="$scratch" XDG_DATA_HOME="$scratch" XDG_CACHE_HOME="$scratch" \
		"$CS_DIR/node_modules/.bin/code-server" --config "$scratch/config.yaml" --version
	rm -rf "$scratch"
	echo "$CODE_SERVER_VERSION" >"$stamp"
}

install_e2e_node_deps() {
	local stamp=$E2E_DIR/.planls-stamp
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$PLAYWRIGHT_VERSION" ] && [ -d "$E2E_DIR/node_modules/playwright-core" ]; then
		return 0
	fi
	log "playwright-core $PLAYWRIGHT_VERSION -> $E2E_DIR"
	mkdir -p "$E2E_DIR"
	cd "$E2E_DIR"
	[ -f package.json ] || printf '{"name":"planls-e2e","private":true}\n' >package.json
	# playwright-core never downloads a browser; the test uses Debian's chromium.
	quiet npm install --no-audit --no-fund --save-exact "playwright-core@$PLAYWRIGHT_VERSION"
	echo "$PLAYWRIGHT_VERSION" >"$stamp"
}

install_apt
install_code_server
install_e2e_node_deps
log "ready: code-server $CODE_SERVER_VERSION and playwright-core $PLAYWRIGHT_VERSION in $CACHE; $(chromium --version 2>/dev/null | head -1)"
