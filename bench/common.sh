# Sourced by bench/run.sh, shards.sh and scale.sh: where the repository, the shared folder, the
# export cache, the binary and /usr/bin/time are, and the synthetic exports, generated once per
# document count.

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${SHARED:-$REPO/../shared}
CACHE=${BENCH_CACHE:-${TMPDIR:-/tmp}/bundlepress-bench}
BIN=$REPO/.build/release/bundlepress
TIME=/usr/bin/time

say() { printf '\n==> %s\n' "$*" >&2; }
die() { printf 'bench/%s: %s\n' "$(basename "$0")" "$*" >&2; exit 1; }

[[ -x $TIME ]] || die "$TIME not found (Debian/Ubuntu: apt-get install time)"

# Prints the path of the synthetic export of $1 documents (bench/gen_export.py), which it
# generates into the cache the first time.
cached_export() {
  local export=$CACHE/export-$1.ndjson
  if [[ ! -s $export ]]; then
    local gen=$REPO/bench/gen_export.py
    mkdir -p "$CACHE"
    say "generating $1 documents -> $export (once per count)"
    python3 "$gen" "$1" "$export.tmp.$$" --format ndjson >&2
    mv "$export.tmp.$$" "$export"
  fi
  printf '%s\n' "$export"
}
