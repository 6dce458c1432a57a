#!/usr/bin/env bash
# Builds the installable extension: bundles src/ with esbuild (so the .vsix
# needs no node_modules) and packages it with the pinned @vscode/vsce.
# Output: editors/vscode/dist/planls-<version>.vsix (git-ignored); the path is
# printed on stdout. Run `npm ci --ignore-scripts` first (run.sh does).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x node_modules/.bin/vsce ]; then
	npm ci --ignore-scripts --no-audit --no-fund >&2
fi
version=$(node -p "require('./package.json').version")
out=dist/planls-$version.vsix
rm -rf out/bundle
npm run -s bundle >&2
# The repository's MIT license travels in the package; the copy is removed again.
cp ../../LICENSE LICENSE
trap 'rm -f LICENSE' EXIT
mkdir -p dist
rm -f "$out"
npx --no-install vsce package --no-dependencies --allow-missing-repository --out "$out" </dev/null >&2
echo "$PWD/$out"
