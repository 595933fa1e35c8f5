#!/usr/bin/env bash
# BundlePress end-to-end benchmark.  Usage: bench/run.sh [N]   (N documents, default 100000)
#
# 1. generates the synthetic export with bench/gen_export.py (cached per N),
# 2. builds bundlepress (swift build -c release),
# 3. times, each under /usr/bin/time -v (wall, user+sys CPU, peak RSS):
#      bp-full    bench/pipeline.yml ("all" + "latest-stories"; gzip_level 6, the default: libdeflate)
#      bp-noop    bp-full again on its own output: nothing changed, the cron case (up to date)
#      bp-parse   the same config without the "all" bundle: read + parse + index + 1 query
#      bp-gzip9   the full config with gzip_level: 9 (libdeflate's 9: smaller, slower)
#      bp-gzip1   the full config with gzip_level: 1 (≈ everything but compression)
#      bp-perf    the full config again under `perf record` + an RSS sampler (stage attribution)
#      gzip -6 / gzip -9 / pigz -6 -p2  over the raw .bundle bytes bp-full produced
#      python     $SHARED/bench/py_bundle_baseline.py (Python Admin SDK path)
# 4. prints a Markdown table (bench/report.py) and keeps everything in the run directory.
#
# Environment:
#   SHARED=DIR        the shared bench folder (default: ../shared next to the repo)
#   BENCH_CACHE=DIR   where exports are cached (default: ${TMPDIR:-/tmp}/bundlepress-bench)
#   EXPORT=FILE       use this NDJSON export instead of generating one (N is then ignored)
#   PYTHON_BASELINE=0 skip the Python baseline (it takes ~80 s at N=100000)
#   PROFILE=0         skip the perf run (no per-stage encode/gzip split then)
#   SKIP_BUILD=1      use the existing .build/release/bundlepress
#   KEEP=0            delete the run directory at the end (default: keep it)
set -euo pipefail

N=${1:-100000}
[[ $N =~ ^[0-9]+$ && $N -gt 0 ]] || { echo "usage: bench/run.sh [N]   (N: positive document count, default 100000)" >&2; exit 2; }

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
BENCH=$REPO/bench
command -v python3 >/dev/null || die "python3 is needed (export generator and report)"

# --- 1. the export -------------------------------------------------------------------------
if [[ -n ${EXPORT:-} ]]; then
  [[ -f $EXPORT ]] || die "EXPORT=$EXPORT does not exist"
  EXPORT=$(cd "$(dirname "$EXPORT")" && pwd)/$(basename "$EXPORT")
else
  EXPORT=$(cached_export "$N")
fi
EXPORT_BYTES=$(stat -c %s "$EXPORT")

# --- 2. the binary ---------------------------------------------------------------------------
if [[ ${SKIP_BUILD:-0} != 1 ]]; then
  say "swift build -c release (in $REPO)"
  (cd "$REPO" && swift build -c release --product bundlepress 2>&1 | tail -n 3) || die "swift build failed"
fi
[[ -x $BIN ]] || die "$BIN is missing; run swift build -c release"

# --- 3. the runs -----------------------------------------------------------------------------
RUN=$(mktemp -d "${TMPDIR:-/tmp}/bundlepress-bench-run.XXXXXX")
if [[ ${KEEP:-1} == 0 ]]; then trap 'rm -rf "$RUN"' EXIT; fi
say "run directory: $RUN"
{
  echo "n=$N"
  echo "export=$EXPORT"
  echo "export_bytes=$EXPORT_BYTES"
  echo "cores=$(nproc)"
  echo "cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "commit=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} > "$RUN/info"

# The configs: bench/pipeline.yml next to a symlink to the export, plus two variants.
# A hard link when possible: bundlepress reports the size of a symlink itself as inputBytes.
ln "$EXPORT" "$RUN/export.ndjson" 2>/dev/null || ln -s "$EXPORT" "$RUN/export.ndjson"
cp "$BENCH/pipeline.yml" "$RUN/pipeline.yml"
# bp-parse: drop the "all" bundle (from "  - id: all" to the next bundle).
awk '/^  - id: /{skip = ($3 == "all")} !skip' "$BENCH/pipeline.yml" > "$RUN/pipeline-parse.yml"
grep -q 'id: latest-stories' "$RUN/pipeline-parse.yml" && ! grep -q 'id: all$' "$RUN/pipeline-parse.yml" \
  || die "could not derive the parse-only config from bench/pipeline.yml"
# bp-gzip1 / bp-gzip9: the full config at gzip_level 1 and 9 (a top-level key after bundles:
# is fine YAML).
for level in 1 9; do
  grep -v '^gzip_level:' "$BENCH/pipeline.yml" > "$RUN/pipeline-gzip$level.yml"
  printf '\ngzip_level: %s\n' "$level" >> "$RUN/pipeline-gzip$level.yml"
done

# timed NAME CMD...: /usr/bin/time -v into NAME.time, stdout NAME.out, stderr NAME.err, plus the
# 1-minute load average before and after (the machine may be shared).
# The /proc/stat "cpu" line before and after gives the CPU time every process used meanwhile;
# report.py subtracts ours to show how busy the rest of the machine was.
timed() {
  local name=$1; shift
  { echo "before=$(cut -d' ' -f1-3 /proc/loadavg)"; echo "stat_before=$(head -n 1 /proc/stat)"; } > "$RUN/$name.load"
  if ! "$TIME" -v -o "$RUN/$name.time" "$@" > "$RUN/$name.out" 2> "$RUN/$name.err"; then
    cat "$RUN/$name.err" >&2
    die "$name failed (command: $*)"
  fi
  { echo "after=$(cut -d' ' -f1-3 /proc/loadavg)"; echo "stat_after=$(head -n 1 /proc/stat)"; } >> "$RUN/$name.load"
  printf '    %-10s %s\n' "$name" "$(awk -F': ' '/Elapsed \(wall clock\)/{w=$2} /Maximum resident/{r=$2} END{printf "wall %s, max RSS %.0f MB", w, r/1024}' "$RUN/$name.time")" >&2
}

# Warm the page cache so no run pays for the first read of the export.
cat "$EXPORT" > /dev/null

say "BundlePress"
timed bp-full  "$BIN" build --config "$RUN/pipeline.yml"       --output "$RUN/site"  --json
timed bp-noop  "$BIN" build --config "$RUN/pipeline.yml"       --output "$RUN/site"  --json
timed bp-parse "$BIN" build --config "$RUN/pipeline-parse.yml" --output "$RUN/site-parse" --json
timed bp-gzip9 "$BIN" build --config "$RUN/pipeline-gzip9.yml" --output "$RUN/site-gzip9" --json
timed bp-gzip1 "$BIN" build --config "$RUN/pipeline-gzip1.yml" --output "$RUN/site-gzip1" --json

if [[ ${PROFILE:-1} != 0 ]]; then
  if command -v perf >/dev/null && perf record -q -o /dev/null -e cpu-clock true >/dev/null 2>&1; then
    # cpu-clock works in VMs without PMU access; -c 1000000 = one sample per 1 ms of CPU on any
    # thread, so samples × 1 ms = CPU seconds. Frame-pointer call graphs (Swift keeps frame
    # pointers) let report.py charge malloc/memcpy/retain/page faults to the stage that called them.
    # rss_sampler.py records bundlepress's RSS every 10 ms on the same clock as perf (-k), so
    # report.py can tell in which stage memory peaks.
    timed bp-perf python3 "$BENCH/rss_sampler.py" "$RUN/rss.tsv" bundlepress -- \
      perf record -q -k CLOCK_MONOTONIC -e cpu-clock -c 1000000 -g -o "$RUN/perf.data" -- \
      "$BIN" build --config "$RUN/pipeline.yml" --output "$RUN/site-perf" --json
    perf script -i "$RUN/perf.data" -F tid,time,ip,sym,dso 2> /dev/null | gzip -1 > "$RUN/perf.script.gz"
  else
    echo "    perf not usable here (apt-get install linux-perf; perf_event_paranoid <= 2): no per-stage split" >&2
  fi
fi

# The same output bytes through gzip itself: both raw bundles, as gzip -c writes them.
mapfile -t RAW < <(find "$RUN/site/bundles" -name '*.bundle' | sort)
[[ ${#RAW[@]} -gt 0 ]] || die "bp-full produced no .bundle files"
cat "${RAW[@]}" > /dev/null
say "gzip over the ${#RAW[@]} raw bundles ($(cat "${RAW[@]}" | wc -c) bytes)"
timed gzip-6 gzip -6 -c "${RAW[@]}"
timed gzip-9 gzip -9 -c "${RAW[@]}"
if command -v pigz >/dev/null; then
  timed pigz-6 pigz -6 -p 2 -c "${RAW[@]}"
fi
for f in gzip-6 gzip-9 pigz-6; do
  if [[ -f $RUN/$f.out ]]; then stat -c %s "$RUN/$f.out" > "$RUN/$f.bytes"; rm -f "$RUN/$f.out"; fi
done

# The two figures of the first target again, taking turns: the report takes the median of each
# (one run of either varies by 5-10 % on a shared host) and lists every run.
say "bp-full and gzip -6 again, $((${REPEATS:-3} - 1)) more time(s) each, interleaved"
for ((i = 2; i <= ${REPEATS:-3}; i++)); do
  rm -rf "$RUN/site-again"
  timed "bp-full.$i" "$BIN" build --config "$RUN/pipeline.yml" --output "$RUN/site-again" --json
  timed "gzip-6.$i" gzip -6 -c "${RAW[@]}"
  rm -f "$RUN/gzip-6.$i.out"
done
rm -rf "$RUN/site-again"

PY=$SHARED/bench/py_bundle_baseline.py
if [[ ${PYTHON_BASELINE:-1} == 0 ]]; then
  echo "    Python baseline skipped (PYTHON_BASELINE=0)" >&2
elif [[ ! -f $PY ]]; then
  echo "    Python baseline skipped: $PY not found (set SHARED=/path/to/shared)" >&2
elif ! python3 -c 'import google.cloud.firestore_bundle' 2>/dev/null; then
  echo "    Python baseline skipped: google-cloud-firestore is not installed (pip install google-cloud-firestore)" >&2
else
  say "Python Admin SDK baseline (slow)"
  timed python python3 "$PY" "$EXPORT" "$RUN/py"
fi

# --- 4. the report ---------------------------------------------------------------------------
say "report"
python3 "$BENCH/report.py" "$RUN" | tee "$RUN/report.md"
