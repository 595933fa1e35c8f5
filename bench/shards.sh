#!/usr/bin/env bash
# The sharded build on one machine: N map tasks run one after another, then the merge, beside
# the one-process build of the same export.  Usage: bench/shards.sh [DOCS] [SHARDS]
# (default 1000000 documents, 8 shards; the export is bench/run.sh's, cached per DOCS).
#
# Prints a Markdown table: each step's wall time, CPU (user+sys) and peak RSS, the checks of
# issue 20's targets (byte-identical site; each map's RSS against its slice of the export; the
# merge's RSS against 2x the raw bundle bytes; total CPU within 1.3x the one-process build; the
# slowest map within 1/6 of its wall time), and keeps the run directory.
#
# Environment: SHARED, BENCH_CACHE, EXPORT, SKIP_BUILD, KEEP as for bench/run.sh; CONFIG, another
# pipeline over the same export (export.ndjson beside it) (default bench/pipeline.yml).
set -euo pipefail

DOCS=${1:-1000000}
SHARDS=${2:-8}
[[ $DOCS =~ ^[0-9]+$ && $SHARDS =~ ^[0-9]+$ && $SHARDS -gt 0 ]] || { echo "usage: bench/shards.sh [DOCS] [SHARDS]" >&2; exit 2; }

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
if [[ -n ${EXPORT:-} ]]; then
  [[ -s $EXPORT ]] || die "EXPORT=$EXPORT does not exist"
else
  EXPORT=$(cached_export "$DOCS")
fi
[[ ${SKIP_BUILD:-0} == 1 ]] || (cd "$REPO" && swift build -c release >&2)

RUN=$(mktemp -d "${TMPDIR:-/tmp}/bundlepress-shards.XXXXXX")
[[ ${KEEP:-1} == 1 ]] || trap 'rm -rf "$RUN"' EXIT
cp "${CONFIG:-$REPO/bench/pipeline.yml}" "$RUN/pipeline.yml"
ln -s "$EXPORT" "$RUN/export.ndjson"
cd "$RUN"

# One step under /usr/bin/time: appends "name wall cpu rss_kib" to steps.txt.
step() {
  local name=$1
  shift
  "$TIME" -f "$name %e %U %S %M" -a -o steps.txt "$@" >/dev/null
}
step one-process "$BIN" build -q --config pipeline.yml --output plain --previous none
for ((k = 0; k < SHARDS; k++)); do
  # A map task reads the previous state the merge reads: it keeps whole what can ship.
  step "map-$k" "$BIN" build -q --config pipeline.yml --shard "$k/$SHARDS" --partial partials --output merged --previous none
done
step merge "$BIN" build -q --config pipeline.yml --merge partials --output merged --previous none
identical=yes
diff -r -x .bundlepress-build.json plain merged >/dev/null || identical=NO

python3 - "$EXPORT" "$SHARDS" "$identical" <<'PY'
import glob, os, sys
export, shards, identical = sys.argv[1], int(sys.argv[2]), sys.argv[3]
steps = []
for line in open("steps.txt"):
    name, wall, user, system, rss = line.split()
    steps.append((name, float(wall), float(user) + float(system), int(rss) * 1024))
size = os.path.getsize(export)
raw = sum(os.path.getsize(f) for f in glob.glob("plain/bundles/*.bundle"))
mib = lambda b: f"{b / 2**20:,.0f} MiB"
print(f"export {size / 1e6:,.1f} MB, {shards} shards (slice ~{size / shards / 2**20:,.0f} MiB); raw bundle bytes {mib(raw)}\n")
print("| step | wall s | CPU s | peak RSS |\n|---|---:|---:|---:|")
for name, wall, cpu, rss in steps:
    print(f"| {name} | {wall:.2f} | {cpu:.2f} | {mib(rss)} |")
one = steps[0]
maps = [s for s in steps if s[0].startswith("map-")]
merge = steps[-1]
total_cpu = sum(s[2] for s in maps) + merge[2]
print()
print(f"- merged site byte-identical to the one-process build: {identical}")
print(f"- largest map RSS {mib(max(s[3] for s in maps))} against a slice of {mib(size / shards)}")
print(f"- merge RSS {mib(merge[3])} = {merge[3] / raw:.2f}x the raw bundle bytes (target <= 2x)")
print(f"- total CPU {total_cpu:.1f} s = {total_cpu / one[2]:.2f}x the one-process build's {one[2]:.1f} s (target <= 1.3x)")
slowest = max(s[1] for s in maps)
print(f"- slowest map {slowest:.2f} s = 1/{one[1] / slowest:.1f} of the one-process wall {one[1]:.2f} s (target <= 1/6)")
print(f"- maps in parallel on {shards} machines, then the merge: {slowest + merge[1]:.1f} s wall")
PY
echo "(run directory: $RUN)" >&2
