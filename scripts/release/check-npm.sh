#!/usr/bin/env bash
# Installs the npm package into an empty project with no registry to reach, the way a site
# build would, and runs it there: `npx bundlepress --version`, `npx bundlepress build` on the
# example, and `npm run build` with the README's `"prebuild": "bundlepress build"` script.
#
# usage: scripts/release/check-npm.sh dist/bundlepress-<version>.tgz [REPOSITORY]
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
    echo "usage: $0 PACKAGE.tgz [REPOSITORY]" >&2
    exit 64
fi
package=$(readlink -f "$1")
repository=$(readlink -f "${2:-$(dirname "$0")/../..}")
version=$(tar -xzOf "$package" package/package.json | node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0)).version)')
project=$(mktemp -d)
trap 'rm -rf "$project"' EXIT

# Offline: no cache to fall back on, and a registry address nothing listens on.
export npm_config_offline=true npm_config_registry=http://127.0.0.1:9/ npm_config_cache=$project/.npm-cache
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

cd "$project"
cp "$repository/pipeline.yml" .
cp -R "$repository/exports" .
npm init -y >/dev/null
npm pkg set scripts.prebuild="bundlepress build" scripts.build="bundlepress verify site"
npm install --save-dev "$package"

fail() {
    echo "check-npm: $*" >&2
    exit 1
}

for file in LICENSE THIRD_PARTY_LICENSES native/linux-x64/bundlepress; do
    [[ -s node_modules/bundlepress/$file ]] || fail "the package has no $file"
done

printed=$(npx bundlepress --version)
[[ $printed == "$version" ]] || fail "npx bundlepress --version printed '$printed', the package is $version"
echo "npx bundlepress --version: $printed"

npx bundlepress build
[[ -f site/bundles/manifest.json && -f site/bundles/bundlepress.js ]] || fail "npx bundlepress build wrote no site/bundles/manifest.json or site/bundles/bundlepress.js"

rm -rf site
npm run build
[[ -f site/bundles/manifest.json ]] || fail "npm run build (prebuild: bundlepress build) wrote no site/bundles/manifest.json"

status=0
npx bundlepress build --config missing.yml 2>/dev/null || status=$?
[[ $status -eq 66 || $status -eq 78 ]] || fail "npx bundlepress build --config missing.yml exited $status, not the binary's 66 or 78"
echo "check-npm: $(basename "$package") installs offline and runs: passed"
