#!/usr/bin/env bash
# Builds the release: a self-contained Linux x86-64 binary (the Swift runtime, Foundation, zlib,
# libdeflate and libstdc++ linked statically; it needs nothing but glibc 2.34 or newer), packed as
#   dist/bundlepress-<version>-linux-x86_64.tar.gz   the binary, LICENSE, THIRD_PARTY_LICENSES, README
#   dist/bundlepress-<version>.tgz                   the npm package (npm/) carrying the binary
#   dist/SHA256SUMS
# The version is what the built binary prints for `bundlepress --version` (Sources/bundlepress/
# Version.swift). Then it checks the binary's dynamic dependencies (scripts/release/check-linkage.sh)
# and installs the npm package offline into an empty project (scripts/release/check-npm.sh).
# scripts/release/check-debootstrap.sh proves the tarball runs on a clean Debian without Swift.
#
# usage: scripts/release.sh [DIST_DIR]     (default dist/; needs libz-dev, libdeflate-dev, npm)
set -euo pipefail
cd "$(dirname "$0")/.."
repository=$PWD
dist=$(mkdir -p "${1:-dist}" && cd "${1:-dist}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== static libraries"
# The C and C++ libraries the build links by name: -lz (CZlib, through pkg-config zlib) and
# -lstdc++ (swift-crypto's BoringSSL, the Swift runtime). A directory holding only their .a files,
# searched first, makes the linker take the archives instead of the shared objects: -L for
# libstdc++, and a zlib.pc whose -L names it (SwiftPM puts pkg-config's flags first on the link
# line). libdeflate, which a source build finds at run time (CLibdeflate), is linked in whole:
# CLibdeflate's weak references then find it in the binary. The debug build and `swift test` are
# untouched: they link libz.so and load libdeflate.so.0 when the machine has it.
# A fixed place, so the flags (and with them the build) stay the same from one release to the next.
link=$repository/.build/release-link
rm -rf "$link"
mkdir -p "$link/static" "$link/pkgconfig"
for archive in libz.a libdeflate.a libstdc++.a; do
    found=$(gcc -print-file-name="$archive")
    if [[ $found != /* ]]; then
        echo "release: $archive not found (apt-get install libz-dev libdeflate-dev g++)" >&2
        exit 1
    fi
    ln -s "$(readlink -f "$found")" "$link/static/$archive"
    echo "$archive: $(readlink -f "$found")"
done
for package in zlib:z; do
    printf 'Name: %s\nDescription: %s, static (scripts/release.sh)\nVersion: %s\nLibs: -L%s -l%s\nCflags: %s\n' \
        "${package%%:*}" "${package%%:*}" "$(pkg-config --modversion "${package%%:*}")" "$link/static" "${package#*:}" \
        "$(pkg-config --cflags "${package%%:*}")" > "$link/pkgconfig/${package%%:*}.pc"
done
gcc -O2 -fPIC -Wall -Werror -c scripts/release/glibc-compat.c -o "$link/glibc-compat.o"

echo "== swift build -c release --static-swift-stdlib"
# --disable-local-rpath: no RUNPATH ($ORIGIN) in the binary; nothing is loaded from beside it.
build=(swift build -c release --product bundlepress --static-swift-stdlib --disable-local-rpath
    -Xswiftc -L"$link/static" -Xlinker "$link/glibc-compat.o"
    -Xlinker --whole-archive -Xlinker "$link/static/libdeflate.a" -Xlinker --no-whole-archive)
PKG_CONFIG_PATH=$link/pkgconfig nice -n 10 "${build[@]}"
binary="$("${build[@]}" --show-bin-path)/bundlepress"

echo "== dynamic dependencies"
glibc=$(scripts/release/check-linkage.sh "$binary")
# The README (Install) promises glibc 2.34: Amazon Linux 2023 (Vercel), RHEL 9, Ubuntu 22.04.
oldest=2.34
if [[ $(printf '%s\n' "$oldest" "$glibc" | sort -V | tail -1) != "$oldest" ]]; then
    echo "release: the binary needs glibc $glibc, newer than the $oldest the README promises:" \
        "give scripts/release/glibc-compat.c the symbols (objdump -T shows them) or change the README" >&2
    exit 1
fi
echo "== libdeflate linked in"
# The example site built by the release binary: its .gz copies come from the libdeflate it carries.
"$binary" build --verbose --config pipeline.yml --output "$work/site" --previous none | tee "$work/build.log"
if ! grep -q '^Compressor: libdeflate (linked in)' "$work/build.log"; then
    echo "release: the binary does not carry libdeflate (see the Compressor line above)" >&2
    exit 1
fi
version=$("$binary" --version)
name=bundlepress-$version-linux-x86_64
echo "version $version, needs glibc $glibc or newer"

# Reproducible archives: file times from the last commit, no owner names.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
tar_options=(--sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner)

echo "== $name.tar.gz"
mkdir "$work/$name"
strip --strip-debug -o "$work/$name/bundlepress" "$binary"
cp LICENSE "$work/$name/LICENSE"
scripts/release/third-party-licenses.sh > "$work/$name/THIRD_PARTY_LICENSES"
sed -e "s/@VERSION@/$version/g" -e "s/@GLIBC@/$glibc/g" scripts/release/README.dist.md > "$work/$name/README.md"
rm -f "$dist/$name.tar.gz"
tar -C "$work" "${tar_options[@]}" -cf - "$name" | gzip -9n > "$dist/$name.tar.gz"

echo "== npm package bundlepress-$version.tgz"
cp -R npm "$work/npm"
(cd "$work/npm" && npm pkg set version="$version")
mkdir -p "$work/npm/native/linux-x64"
cp "$work/$name/bundlepress" "$work/npm/native/linux-x64/bundlepress"
cp LICENSE "$work/$name/THIRD_PARTY_LICENSES" "$work/npm/"
rm -f "$dist/bundlepress-$version.tgz"
(cd "$work/npm" && npm pack --silent --pack-destination "$dist" >/dev/null)

(cd "$dist" && sha256sum "$name.tar.gz" "bundlepress-$version.tgz" > SHA256SUMS)

echo "== npm install of the package, offline, and npx bundlepress build"
scripts/release/check-npm.sh "$dist/bundlepress-$version.tgz" "$repository"

echo "== done"
ls -l "$dist"
cat "$dist/SHA256SUMS"
