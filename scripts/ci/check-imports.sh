#!/usr/bin/env bash
# Every module a target's Swift files import is one of its dependencies in Package.swift (a
# target, or a target of a product it names), or one of the toolchain's own: an import that
# builds only because another target happens to pull the module in is reported.
# Usage: scripts/ci/check-imports.sh (after a build or `swift package resolve`: it reads the
# dependencies' manifests from .build/checkouts). Needs jq.
set -euo pipefail
cd "$(dirname "$0")/../.."

# The toolchain's modules, and the C library behind `#if canImport(...)`.
toolchain="Foundation FoundationEssentials FoundationNetworking Dispatch Glibc Musl Darwin os Testing XCTest Synchronization PackagePlugin _Concurrency Swift"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# A scratch path of its own: no wait on a build holding .build's lock.
dump() { swift package --package-path "$1" --scratch-path "$scratch/${1//\//_}" dump-package; }

dump . >"$scratch/root.json"
# The modules of each product the targets name: "package/product module".
jq -r '[.targets[].dependencies[] | .product? // empty | "\(.[1])/\(.[0])"] | unique[]' "$scratch/root.json" |
    while IFS=/ read -r package product; do
        checkout=$(find .build/checkouts -mindepth 1 -maxdepth 1 -iname "$package" | head -n 1)
        if [[ -z $checkout ]]; then
            echo "check-imports: no .build/checkouts/$package (run swift package resolve first)" >&2
            exit 2
        fi
        [[ -f $scratch/$package.json ]] || dump "$checkout" >"$scratch/$package.json"
        jq -r --arg product "$product" --arg package "$package" \
            '.products[] | select(.name == $product) | .targets[] | "\($package)/\($product) \(.)"' "$scratch/$package.json"
    done >"$scratch/product-modules"

status=0
while IFS=$'\t' read -r target kind path; do
    if [[ $path == null ]]; then
        case $kind in
            test) path="Tests/$target" ;;
            plugin) path="Plugins/$target" ;;
            *) path="Sources/$target" ;;
        esac
    fi
    [[ -d $path ]] || continue
    allowed=" $toolchain $target "
    for dependency in $(jq -r --arg target "$target" \
        '.targets[] | select(.name == $target) | .dependencies[] | (.byName? // .target? // empty)[0], (.product? // empty | "\(.[1])/\(.[0])")' \
        "$scratch/root.json"); do
        if [[ $dependency == */* ]]; then
            allowed+="$(awk -v key="$dependency" '$1 == key { printf "%s ", $2 }' "$scratch/product-modules")"
        else
            allowed+="$dependency "
        fi
    done
    while IFS=: read -r file _ module; do
        if [[ $allowed != *" $module "* ]]; then
            echo "$file: imports $module, which Package.swift does not list for $target" >&2
            status=1
        fi
    done < <(grep -rEo --include='*.swift' '^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*import[[:space:]]+((struct|class|enum|protocol|func|var|let|typealias)[[:space:]]+)?[A-Za-z_][A-Za-z0-9_]*' "$path" |
        sed -E 's/^([^:]*):.*import[[:space:]]+((struct|class|enum|protocol|func|var|let|typealias)[[:space:]]+)?/\1::/' | sort -u)
done < <(jq -r '.targets[] | select(.type != "system" and .type != "binary") | [.name, .type, (.path // "null")] | @tsv' "$scratch/root.json")

if [[ $status == 0 ]]; then
    echo "check-imports: every target imports only what Package.swift declares for it"
fi
exit "$status"
