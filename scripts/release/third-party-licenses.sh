#!/usr/bin/env bash
# Prints the licences of the code scripts/release.sh links into the binary: the Swift runtime
# and Foundation (the toolchain's LICENSE.txt), every Swift package dependency (their
# checkouts' LICENSE and NOTICE files, and those of code vendored under Sources/), zlib,
# libdeflate, libstdc++, libgcc and ICU (Debian's copyright files).
#
# usage: scripts/release/third-party-licenses.sh   (after `swift build`, from the repository)
set -euo pipefail
cd "$(dirname "$0")/../.."

section() {
    printf '%s\n%s\n\n' "================================================================================" "$1"
    cat "$2"
    printf '\n'
}

swift_root=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
section "Swift runtime and standard library, Foundation, Dispatch ($(swift --version 2>/dev/null | head -1))" \
    "$swift_root/share/swift/LICENSE.txt"

shopt -s nullglob
for checkout in .build/checkouts/*/; do
    package=$(basename "$checkout")
    files=("$checkout"LICENSE* "$checkout"NOTICE* "$checkout"Sources/*/LICENSE*)
    if [[ ${#files[@]} -eq 0 ]]; then
        echo "third-party-licenses: $checkout has no LICENSE file" >&2
        exit 1
    fi
    for file in "${files[@]}"; do
        section "$package: ${file#"$checkout"}" "$file"
    done
done

for package in zlib1g libdeflate0 libstdc++6 libgcc-s1; do
    section "$package (Debian's copyright file)" "/usr/share/doc/$package/copyright"
done

# Foundation carries ICU (_FoundationICU, from swift-foundation-icu); the toolchain ships no
# licence file for it, Debian's ICU package has the same ICU/Unicode licence.
icu=(/usr/share/doc/libicu[0-9]*/copyright)
if [[ ${#icu[@]} -eq 0 ]]; then
    echo "third-party-licenses: no /usr/share/doc/libicuNN/copyright for ICU's licence (apt-get install libicu-dev)" >&2
    exit 1
fi
section "ICU, in Foundation's _FoundationICU (licence text from Debian's ICU package)" "${icu[0]}"
