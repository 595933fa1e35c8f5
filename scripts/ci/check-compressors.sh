#!/usr/bin/env bash
# The two compressors of the .gz copies give the same site but for the .gz bytes: in a checkout
# whose example site was just built (with libdeflate.so.0, loaded at run time), builds it again
# into another folder with libdeflate.so.0 hidden (zlib), then checks that each build names its
# compressor, both sites verify, every .gz passes gzip -t and unpacks to its raw bundle, and the
# bundles' names and raw bytes are the same.
#
# usage: scripts/ci/check-compressors.sh CHECKOUT
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$1"
binary=$(swift build --show-bin-path)/bundlepress
mapfile -t deflate_runtime < <(dpkg -L libdeflate0 | grep '/libdeflate\.so\.0')

"$binary" build --force --verbose | tee .build/ci-libdeflate.log
grep -q '^Compressor: libdeflate (libdeflate\.so\.0)' .build/ci-libdeflate.log
rm -rf .build/ci-zlib
"$here/without.sh" "${deflate_runtime[@]}" -- "$binary" build --verbose -o .build/ci-zlib | tee .build/ci-zlib.log
grep -q '^Compressor: zlib ' .build/ci-zlib.log

for site in site .build/ci-zlib; do
    "$binary" verify "$site"
    for gz in "$site"/bundles/*.bundle.gz; do
        gzip -t "$gz"
        cmp <(gzip -dc "$gz") "${gz%.gz}"
    done
done
diff <(cd site/bundles && ls *.bundle) <(cd .build/ci-zlib/bundles && ls *.bundle)
for bundle in site/bundles/*.bundle; do cmp "$bundle" ".build/ci-zlib/bundles/${bundle##*/}"; done
echo "check-compressors: libdeflate and zlib built the same $(ls site/bundles/*.bundle | wc -l) bundles; every .gz unpacks to its bundle"
