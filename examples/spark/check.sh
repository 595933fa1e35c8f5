#!/usr/bin/env bash
# Runs examples/spark/build.py in Spark's local mode and checks that the site it publishes is
# byte-identical to a plain `bundlepress build`.  Usage: examples/spark/check.sh [CONFIG] [SHARDS]
# (default: the example site's pipeline.yml, 4 shards). Needs pyspark (pip install pyspark) and
# Java 17; builds the release binary unless BUNDLEPRESS names one.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CONFIG=$(cd "$(dirname "${1:-$REPO/pipeline.yml}")" && pwd)/$(basename "${1:-$REPO/pipeline.yml}")
SHARDS=${2:-4}
if [[ -z ${BUNDLEPRESS:-} ]]; then
  (cd "$REPO" && swift build -c release >&2)
  BUNDLEPRESS=$REPO/.build/release/bundlepress
fi
python3 -c 'import pyspark' 2>/dev/null || { echo "examples/spark/check.sh: pyspark is not installed (pip install pyspark)" >&2; exit 1; }

RUN=$(mktemp -d "${TMPDIR:-/tmp}/bundlepress-spark.XXXXXX")
trap 'rm -rf "$RUN"' EXIT
cd "$(dirname "$CONFIG")"
"$BUNDLEPRESS" build --quiet --config "$CONFIG" --output "$RUN/plain" --previous none
python3 "$REPO/examples/spark/build.py" --master "local[2]" --binary "$BUNDLEPRESS" --config "$CONFIG" --shards "$SHARDS" \
  -- --quiet --output "$RUN/spark" --previous none 2> "$RUN/spark.log" || { cat "$RUN/spark.log" >&2; exit 1; }
# The plain build keeps a record of its sources for up-to-date checks; a merge keeps none.
if diff -r -x .bundlepress-build.json "$RUN/plain" "$RUN/spark"; then
  echo "examples/spark/check.sh: the Spark build ($SHARDS shards) is byte-identical to a plain build of $CONFIG"
else
  echo "examples/spark/check.sh: the Spark build differs from a plain build" >&2
  exit 1
fi
