#!/usr/bin/env bash
# Proves the release tarball runs without Swift: for each Debian suite, debootstrap a minimal
# root file system (minbase + curl) into a temporary directory, copy in only the tarball and
# the example project (pipeline.yml, exports/), and run inside it with chroot: install the
# binary, `bundlepress --version`, `build`, `verify`, `query`, and `serve` answered by curl.
# Needs root and debootstrap (apt-get install debootstrap), and a Debian mirror.
#
# usage: scripts/release/check-debootstrap.sh dist/bundlepress-<version>-linux-x86_64.tar.gz [SUITE…]
#        (default suites: bookworm trixie; DEBIAN_MIRROR overrides http://deb.debian.org/debian;
#        DEBOOTSTRAP_CACHE keeps the downloaded packages between runs)
set -euo pipefail

if [[ $# -lt 1 ]]; then
    echo "usage: $0 TARBALL [SUITE…]" >&2
    exit 64
fi
tarball=$(readlink -f "$1")
shift
if [[ $# -gt 0 ]]; then suites=("$@"); else suites=(bookworm trixie); fi
repository=$(readlink -f "$(dirname "$0")/../..")
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
if [[ $(id -u) -ne 0 ]]; then
    echo "check-debootstrap: debootstrap and chroot need root" >&2
    exit 77
fi
command -v debootstrap >/dev/null || { echo "check-debootstrap: apt-get install debootstrap" >&2; exit 69; }
chroot=$(command -v chroot)

scratch=$(mktemp -d)
mounted=""
cleanup() {
    [[ -z $mounted ]] || umount "$mounted"
    rm -rf --one-file-system "$scratch"
}
trap cleanup EXIT

# What runs inside the chroot, with nothing but the tarball and the example project in it.
# shellcheck disable=SC2016 # expanded inside the chroot
inside='
set -eu
fail() { echo "check-debootstrap: $*" >&2; exit 1; }
if command -v swift >/dev/null || [ -e /opt/swift ]; then fail "this root has Swift"; fi
cd /tmp && tar -xzf bundlepress-*-linux-x86_64.tar.gz
install bundlepress-*-linux-x86_64/bundlepress /usr/local/bin/bundlepress
echo "bundlepress --version: $(bundlepress --version)"
cd /srv/example
bundlepress build
bundlepress verify site
[ -f site/bundles/bundlepress.js ] || fail "build wrote no loader (site/bundles/bundlepress.js)"
bundlepress query latest-stories --format paths > /tmp/latest-stories
[ -s /tmp/latest-stories ] || fail "bundlepress query latest-stories printed nothing"
echo "bundlepress query latest-stories: $(wc -l < /tmp/latest-stories) documents"
: > /tmp/serve.out
bundlepress serve --port 0 --quiet > /tmp/serve.out &
server=$!
for _ in $(seq 300); do grep -q "^Serving .* at http" /tmp/serve.out && break; sleep 0.1; done
url=$(sed -n "s/^Serving .* at \(http[^ ]*\)$/\1/p" /tmp/serve.out)
[ -n "$url" ] || fail "bundlepress serve did not start"
curl -fsS "${url}bundles/manifest.json" | grep -q "\"schema_version\"" || fail "GET ${url}bundles/manifest.json"
bundle=$(sed -n "s/.*\"url\" *: *\"\(bundles\/[^\"]*\.bundle\)\".*/\1/p" site/bundles/manifest.json | head -1)
curl -fsS -o /dev/null -D /tmp/headers -H "Accept-Encoding: gzip" "$url$bundle"
grep -qi "^content-encoding: gzip" /tmp/headers || fail "GET $url$bundle: no Content-Encoding: gzip"
grep -qi "^cache-control: public, max-age=31536000, immutable" /tmp/headers || fail "GET $url$bundle: not immutable"
curl -fsS "${url}index.html" | grep -qi "<html" || fail "GET ${url}index.html"
kill -TERM "$server"
wait "$server" || fail "bundlepress serve exited $? after SIGTERM"
echo "serve: manifest, $bundle (gzip, immutable) and the explorer page answered"
'

for suite in "${suites[@]}"; do
    root=$scratch/$suite
    echo "== debootstrap $suite (minbase + curl) into $root"
    cache=()
    if [[ -n ${DEBOOTSTRAP_CACHE:-} ]]; then
        mkdir -p "$DEBOOTSTRAP_CACHE/$suite"
        cache=(--cache-dir="$(readlink -f "$DEBOOTSTRAP_CACHE/$suite")")
    fi
    debootstrap --variant=minbase --include=curl "${cache[@]}" "$suite" "$root" "$mirror" > "$scratch/$suite.log" 2>&1 \
        || { tail -20 "$scratch/$suite.log" >&2; echo "check-debootstrap: debootstrap $suite failed" >&2; exit 1; }
    echo "glibc: $(chroot "$root" /usr/bin/ldd --version | head -1)"
    cp "$tarball" "$root/tmp/"
    mkdir -p "$root/srv/example"
    cp -R "$repository/pipeline.yml" "$repository/exports" "$root/srv/example/"
    mount -t proc proc "$root/proc"
    mounted=$root/proc
    echo "== in the $suite chroot"
    env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root LANG=C.UTF-8 "$chroot" "$root" /bin/sh -c "$inside"
    umount "$mounted"
    mounted=""
    rm -rf --one-file-system "$root"
    echo "check-debootstrap: $suite passed"
done
echo "check-debootstrap: $(basename "$tarball") runs on ${suites[*]} without Swift: passed"
