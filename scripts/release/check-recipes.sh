#!/usr/bin/env bash
# Tries the recipes of examples/ (docs/cron.md, "Recipes") as far as this machine allows, with the
# release files, against a "live site" that `bundlepress serve` plays on 127.0.0.1:
# - GitHub Actions (examples/github-actions/publish-bundles.yml): shellcheck on every run: step;
#   the install step (from a local copy of the release page, SHA256SUMS checked), the export
#   time, build with --previous, verify and the firebase.json merge run in a fresh checkout.
#   The Firebase deploy itself needs a project and is not run.
# - Netlify and Cloudflare Pages (examples/site-build/): the npm package installed offline into
#   a fresh checkout, netlify.toml's build command and `npm run build` with SITE_URL; deploy/
#   must hold the bundles, manifest, loader and _headers, and no .gz or dot file. An
#   unreachable SITE_URL must fail the build with 69 (so --previous is really read).
# - systemd (examples/systemd/): `systemd-analyze verify`, ExecStart run in a copy of the
#   site, and exit 75 (SuccessExitStatus) while another build holds the lock.
# - cron (examples/cron/crontab): the line run by sh: silent on success, "exit 75" when locked.
#
# usage: scripts/release/check-recipes.sh DIST_DIR     (after scripts/release.sh; needs python3
#        with PyYAML, jq, shellcheck, systemd-analyze, npm)
set -euo pipefail

if [[ $# -ne 1 ]]; then
    echo "usage: $0 DIST_DIR" >&2
    exit 64
fi
dist=$(readlink -f "$1")
repository=$(readlink -f "$(dirname "$0")/../..")
examples=$repository/examples
tarball=$(ls "$dist"/bundlepress-*-linux-x86_64.tar.gz)
version=$(basename "$tarball" | sed 's/^bundlepress-\(.*\)-linux-x86_64\.tar\.gz$/\1/')
package=$dist/bundlepress-$version.tgz
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

fail() {
    echo "check-recipes: $*" >&2
    exit 1
}

# A fresh checkout of a site repository: pipeline.yml and its exports.
checkout() {
    mkdir -p "$1"
    cp -R "$repository/pipeline.yml" "$repository/exports" "$1/"
}

# Waits (30 s at most) for a line matching $2 in the file $1.
wait_for() {
    for _ in $(seq 300); do grep -q "$2" "$1" && return; sleep 0.1; done
    fail "no '$2' in $1 after 30 s: $(cat "$1")"
}

# Runs a build paused with the output's lock held (the CLI's test hook), until killed.
hold_lock() {
    BUNDLEPRESS_TEST_PAUSE_AT=locked "$work/bin/bundlepress" build --config "$1/pipeline.yml" --output "$1/site" --quiet 2> "$work/holder.err" &
    holder=$!
    pids+=("$holder")
    wait_for "$work/holder.err" "bundlepress-test-pause: locked"
}

echo "== the live site: the example built and served by bundlepress serve"
mkdir -p "$work/bin"
tar -xzOf "$tarball" "bundlepress-$version-linux-x86_64/bundlepress" > "$work/bin/bundlepress"
chmod +x "$work/bin/bundlepress"
checkout "$work/live"
(cd "$work/live" && "$work/bin/bundlepress" build --quiet --previous none)
"$work/bin/bundlepress" serve --dir "$work/live/site" --port 0 --quiet > "$work/live.out" &
pids+=($!)
wait_for "$work/live.out" "^Serving .* at http"
live=$(sed -n 's/^Serving .* at \(http[^ ]*\)$/\1/p' "$work/live.out")
echo "live site: $live"

echo "== GitHub Actions: examples/github-actions/publish-bundles.yml"
workflow=$examples/github-actions/publish-bundles.yml
# Each run: script, named by its step, with ${{ … }} expressions as the shell sees their values.
python3 - "$workflow" "$work/steps" <<'PY'
import os, re, sys, yaml
workflow, out = sys.argv[1], sys.argv[2]
os.makedirs(out)
steps = yaml.safe_load(open(workflow))["jobs"]["publish"]["steps"]
for step in steps:
    if "run" in step:
        name = re.sub(r"[^A-Za-z0-9]+", "-", step["name"]).strip("-").lower()
        script = re.sub(r"\$\{\{[^}]*\}\}", "VALUE", step["run"])
        open(os.path.join(out, name + ".sh"), "w").write("#!/usr/bin/env bash\nset -eo pipefail\n" + script)
PY
shellcheck "$work"/steps/*.sh
mkdir -p "$work/releases/v$version" "$work/fakebin"
cp "$tarball" "$dist/SHA256SUMS" "$work/releases/v$version/"
# -u: the "Serving HTTP on" line must reach the log now, not when a buffer fills (PYTHONUNBUFFERED may be unset).
python3 -u -m http.server --bind 127.0.0.1 --directory "$work/releases" 0 > "$work/releases.log" 2>&1 &
pids+=($!)
wait_for "$work/releases.log" "Serving HTTP on"
releases=$(sed -n 's|.*(\(http://[^)]*\)).*|\1|p' "$work/releases.log" | head -1)
# The runner's `sudo install … /usr/local/bin/bundlepress`, installing into this check's bin/.
# shellcheck disable=SC2016 # the $1… are the fake sudo's own
printf '#!/bin/sh\n[ "$1" = install ] && [ "$3" = /usr/local/bin/bundlepress ] || exit 1\nexec install "$2" "%s/actions-bin/bundlepress"\n' "$work" > "$work/fakebin/sudo"
chmod +x "$work/fakebin/sudo"
mkdir -p "$work/actions-bin"
checkout "$work/actions"
mkdir -p "$work/actions/scripts"
printf '#!/bin/sh\necho "exports are in the checkout already"\n' > "$work/actions/scripts/export-firestore.sh"
chmod +x "$work/actions/scripts/export-firestore.sh"
# shellcheck disable=SC2030 # the runner's PATH, for these steps only
(
    cd "$work/actions"
    export PATH=$work/fakebin:$work/actions-bin:$PATH GITHUB_ENV=$work/github-env SITE_URL=$live
    export BUNDLEPRESS_VERSION=$version BUNDLEPRESS_RELEASES=${releases%/}
    : > "$GITHUB_ENV"
    bash "$work/steps/install-bundlepress.sh"
    bash "$work/steps/export-firestore.sh"
    # shellcheck source=/dev/null
    set -a && . "$GITHUB_ENV" && set +a
    [[ $EXPORT_TIME =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$ ]] || fail "EXPORT_TIME is '$EXPORT_TIME'"
    bash "$work/steps/build.sh"
    bash "$work/steps/check.sh"
    bash "$work/steps/firebase-json.sh"
    [[ $(jq -r .hosting.public firebase.json) == site ]] || fail "firebase.json: hosting.public is not site"
    jq -e '.hosting.headers | length > 0' firebase.json > /dev/null || fail "firebase.json has no headers"
)
echo "GitHub Actions: install, build --previous, verify and firebase.json passed"

echo "== Netlify and Cloudflare Pages: examples/site-build/ with the npm package, offline"
export npm_config_offline=true npm_config_registry=http://127.0.0.1:9/ npm_config_cache=$work/npm-cache
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
site_build() {
    checkout "$1"
    cp "$examples/site-build/package.json" "$examples/site-build/deploy.mjs" "$1/"
    (cd "$1" && npm install --save-dev --silent "$package")
}
check_deploy() {
    local deploy=$1/deploy
    for file in bundles/manifest.json _headers bundles/bundlepress.js; do
        [[ -f $deploy/$file ]] || fail "$deploy has no $file"
    done
    ls "$deploy"/bundles/*.bundle > /dev/null || fail "$deploy has no bundle"
    leftovers=$(find "$deploy" \( -name '.*' -o -name '*.gz' \) -print)
    [[ -z $leftovers ]] || fail "$deploy holds files not for the web: $leftovers"
}
site_build "$work/netlify"
netlify_command=$(python3 -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb"))["build"]["command"])' "$examples/site-build/netlify.toml")
(cd "$work/netlify" && URL=$live bash -c "$netlify_command")
check_deploy "$work/netlify"
echo "Netlify: $netlify_command passed"
site_build "$work/cloudflare"
(cd "$work/cloudflare" && SITE_URL=$live npm run build --silent)
check_deploy "$work/cloudflare"
rm -rf "$work/cloudflare/site" "$work/cloudflare/deploy"
status=0
(cd "$work/cloudflare" && SITE_URL=http://127.0.0.1:9/ npm run build --silent) > /dev/null 2>&1 || status=$?
[[ $status -ne 0 && ! -e $work/cloudflare/site/bundles/manifest.json ]] \
    || fail "a build with an unreachable SITE_URL published (status $status): --previous is not read"
echo "Cloudflare Pages: npm run build with SITE_URL passed; an unreachable SITE_URL fails the build"

echo "== systemd: examples/systemd/"
root=$work/systemd-root
mkdir -p "$root/usr/local/bin" "$root/etc/systemd/system" "$root/usr/lib/systemd"
cp -R /usr/lib/systemd/system "$root/usr/lib/systemd/"
cp "$work/bin/bundlepress" "$root/usr/local/bin/"
cp "$examples/systemd/bundlepress.service" "$examples/systemd/bundlepress.timer" "$root/etc/systemd/system/"
systemd-analyze verify --root="$root" /etc/systemd/system/bundlepress.service /etc/systemd/system/bundlepress.timer
exec_start=$(sed -n 's|^ExecStart=/usr/local/bin/bundlepress ||p' "$examples/systemd/bundlepress.service" | sed "s|https://data.example.com/|$live|")
success=$(sed -n 's/^SuccessExitStatus=//p' "$examples/systemd/bundlepress.service")
checkout "$work/srv-news"
(cd "$work/srv-news" && eval "\"$work/bin/bundlepress\" $exec_start")
[[ -f $work/srv-news/site/bundles/manifest.json ]] || fail "ExecStart published nothing"
hold_lock "$work/srv-news"
status=0
(cd "$work/srv-news" && eval "\"$work/bin/bundlepress\" $exec_start") 2> /dev/null || status=$?
kill "$holder"
[[ " $success " == *" $status "* ]] || fail "ExecStart exited $status while the lock was held, not one of SuccessExitStatus=$success"
echo "systemd: verify, ExecStart, and exit $status (SuccessExitStatus) while locked passed"

echo "== cron: examples/cron/crontab"
line=$(grep -v '^#' "$examples/cron/crontab" | grep -v '^$')
command=$(sed -E 's/^([^ ]+ +){5}//' <<<"$line" | sed -e "s|/srv/news|$work/cron|" -e "s|https://data.example.com/|$live|")
checkout "$work/cron"
# shellcheck disable=SC2031 # this PATH is the script's own
output=$(PATH=$work/bin:$PATH sh -c "$command" 2>&1)
[[ -z $output ]] || fail "the cron line printed on success (cron would mail it): $output"
[[ -f $work/cron/site/bundles/manifest.json ]] || fail "the cron line published nothing"
hold_lock "$work/cron"
# shellcheck disable=SC2031
output=$(PATH=$work/bin:$PATH sh -c "$command" 2>/dev/null)
kill "$holder"
[[ $output == "bundlepress build: exit 75" ]] || fail "the cron line printed '$output' while the lock was held"
echo "cron: silent on success, 'exit 75' while locked passed"
echo "check-recipes: every recipe passed"
