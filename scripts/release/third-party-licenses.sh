#!/usr/bin/env bash
# Prints the licences of the code scripts/release.sh links into the binary: the Swift runtime
# and Foundation (the toolchain's LICENSE.txt), every Swift package dependency (their
# checkouts' LICENSE and NOTICE files), zlib and libstdc++/libgcc (Debian's copyright files).
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
    files=("$checkout"LICENSE* "$checkout"NOTICE*)
    if [[ ${#files[@]} -eq 0 ]]; then
        echo "third-party-licenses: $checkout has no LICENSE file" >&2
        exit 1
    fi
    for file in "${files[@]}"; do
        section "$package: $(basename "$file")" "$file"
    done
done

for package in zlib1g libstdc++6 libgcc-s1; do
    section "$package (Debian package, linked statically)" "/usr/share/doc/$package/copyright"
done
