#!/usr/bin/env bash
# Linear scale (issue 19, goal 3): the build of a large export against the build of a small one,
# interleaved.  Usage: bench/scale.sh [ROUNDS] [SMALL] [LARGE]
# (default 3 rounds, 100000 and 1000000 documents; the exports are bench/run.sh's, cached per
# count).
#
# Each round builds the small export twice, then the large one, each into a fresh output
# directory under /usr/bin/time. Prints a Markdown table of every build (wall, CPU, peak RSS),
# then the median wall time of each size and their ratio, against the target (<= 11x for 10x
# the documents), and each round's ratio (its large build against its small builds' median).
# One build of a size varies by 5-10 % on this host, so only the medians of several rounds say
# whether the target holds.
#
# Environment: SHARED, BENCH_CACHE, SKIP_BUILD, KEEP as for bench/run.sh; CONFIG, another
# pipeline over the same exports (default bench/pipeline.yml).
set -euo pipefail

ROUNDS=${1:-3}
SMALL=${2:-100000}
LARGE=${3:-1000000}
[[ $ROUNDS =~ ^[0-9]+$ && $ROUNDS -gt 0 && $SMALL =~ ^[0-9]+$ && $LARGE =~ ^[0-9]+$ && $SMALL -gt 0 && $LARGE -gt $SMALL ]] ||
  { echo "usage: bench/scale.sh [ROUNDS] [SMALL] [LARGE]  (LARGE > SMALL > 0)" >&2; exit 2; }

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
SMALL_EXPORT=$(cached_export "$SMALL")
LARGE_EXPORT=$(cached_export "$LARGE")
[[ ${SKIP_BUILD:-0} == 1 ]] || (cd "$REPO" && swift build -c release --product bundlepress >&2)

RUN=$(mktemp -d "${TMPDIR:-/tmp}/bundlepress-scale.XXXXXX")
[[ ${KEEP:-1} == 1 ]] || trap 'rm -rf "$RUN"' EXIT
for size in small large; do
  mkdir "$RUN/$size"
  cp "${CONFIG:-$REPO/bench/pipeline.yml}" "$RUN/$size/pipeline.yml"
done
ln -s "$SMALL_EXPORT" "$RUN/small/export.ndjson"
ln -s "$LARGE_EXPORT" "$RUN/large/export.ndjson"
cd "$RUN"

# One build of $1 (small or large) in round $2: appends "size round wall user sys rss_kib" to
# builds.txt, and removes its site (the next build starts from an empty output directory).
build() {
  rm -rf "$1/site"
  "$TIME" -f "$1 $2 %e %U %S %M" -a -o builds.txt "$BIN" build -q --config "$1/pipeline.yml" --output "$1/site" --previous none >/dev/null
  rm -rf "$1/site"
}
for ((round = 1; round <= ROUNDS; round++)); do
  build small "$round"
  build small "$round"
  build large "$round"
done

python3 - "$SMALL" "$LARGE" <<'PY'
import statistics, sys
small, large = int(sys.argv[1]), int(sys.argv[2])
builds = [line.split() for line in open("builds.txt")]
walls = {"small": [], "large": []}
rounds = {}
print(f"| round | documents | wall s | CPU s (user + sys) | peak RSS |\n|---:|---:|---:|---:|---:|")
for size, round, wall, user, system, rss in builds:
    docs = small if size == "small" else large
    print(f"| {round} | {docs:,} | {float(wall):.2f} | {float(user) + float(system):.2f} ({user} + {system}) | {int(rss) / 1024:,.0f} MiB |")
    walls[size].append(float(wall))
    rounds.setdefault(round, {"small": [], "large": []})[size].append(float(wall))
scale = large / small
target = 1.1 * scale
ratio = statistics.median(walls["large"]) / statistics.median(walls["small"])
per_round = [statistics.median(r["large"]) / statistics.median(r["small"]) for r in rounds.values()]
print()
print(f"- median wall: {statistics.median(walls['small']):.2f} s for {small:,} documents, {statistics.median(walls['large']):.2f} s for {large:,}")
print(f"- ratio of the medians: {ratio:.2f}x for {scale:g}x the documents (target <= {target:g}x): {'met' if ratio <= target else 'NOT met'}")
print(f"- each round's ratio: {', '.join(f'{r:.2f}x' for r in per_round)} ({sum(r <= target for r in per_round)} of {len(per_round)} within {target:g}x)")
PY
