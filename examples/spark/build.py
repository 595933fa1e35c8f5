#!/usr/bin/env python3
"""Build a BundlePress site with Apache Spark: the map tasks run as Spark tasks, the merge on
the driver. The site is byte-identical to `bundlepress build` on one machine (README, "Scaling
out"; docs/scaling.md).

Each Spark task runs `bundlepress build --shard K/N --partial DIR` for its slice of the inputs;
the driver then runs `bundlepress build --merge DIR`, which publishes the site with the lock and
atomic publish of a plain build. Partials go to a path every task and the driver share
(--partials), or, without one, come back to the driver as bytes.

The executors need the config and the exports at the same paths as the driver (a shared or
network filesystem, or object storage mounted on every node), and the binary: ship it with
`spark-submit --files bundlepress` (found with SparkFiles) or install it on every node (--binary).

Locally (pip install pyspark; Java 17):
    python3 examples/spark/build.py --master 'local[2]' --binary .build/release/bundlepress \\
        --config pipeline.yml --shards 4 -- --previous none
On a cluster:
    spark-submit --files /path/to/bundlepress examples/spark/build.py \\
        --config /shared/site/pipeline.yml --shards 64 --partials /shared/partials -- --output /shared/site/public

Arguments after `--` go to the merge (`--output`, `--previous`, `--snapshot-time`, `--json`, …);
`--output` and `--previous` go to the map tasks too: they keep whole the documents that can ship,
which include those the site published before, so they read the previous state as the merge does
(on a cluster, from a path every node reads, even when the partials are collected as bytes).
Exit status: the merge's (0 on success); a failed map task fails the Spark job (status 1).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", default="pipeline.yml", help="the pipeline config (a path every node can read)")
    parser.add_argument("--shards", type=int, required=True, help="the number of map tasks")
    parser.add_argument("--partials", help="a directory the tasks and the driver share; without it, partials come back to the driver as bytes")
    parser.add_argument("--binary", help="the bundlepress binary on every node (default: the one shipped with --files, else bundlepress on PATH)")
    parser.add_argument("--master", help="the Spark master when not run by spark-submit, e.g. local[2]")
    parser.add_argument("merge_arguments", nargs="*", help="after --: arguments for the merge")
    arguments = parser.parse_args(argv)
    if arguments.shards < 1:
        parser.error("--shards must be at least 1")
    return arguments


def binary_path(given):
    """The binary on this node: --binary, the one shipped with --files, or bundlepress on PATH."""
    if given:
        return given
    try:
        from pyspark import SparkFiles

        shipped = SparkFiles.get("bundlepress")
        if os.path.exists(shipped):
            os.chmod(shipped, 0o755)
            return shipped
    except Exception:
        pass
    found = shutil.which("bundlepress")
    if not found:
        raise RuntimeError("no bundlepress binary: ship it with spark-submit --files, pass --binary, or put it on PATH")
    return found


def previous_state_arguments(merge_arguments):
    """The merge's --output and --previous, for the map tasks, which read the previous state as
    the merge does. Paths are made absolute: tasks need not run in the driver's directory."""
    found, given = [], list(merge_arguments)
    for index, argument in enumerate(given):
        name, equals, value = argument.partition("=")
        if name not in ("--output", "-o", "--previous"):
            continue
        if not equals:
            if index + 1 >= len(given):
                continue
            value = given[index + 1]
        if name != "--previous" or (value != "none" and "://" not in value):
            value = os.path.abspath(value)
        found += [name, value]
    return found


def map_task(shard, shards, config, binary, partials, previous_state):
    """Runs map task `shard` of `shards`; returns its partial's files as (name, bytes) when they
    are collected, else nothing (they are in the shared directory)."""
    directory = partials or tempfile.mkdtemp(prefix="bundlepress-partial-")
    try:
        command = [binary_path(binary), "build", "--quiet", "--config", config, "--shard", f"{shard}/{shards}", "--partial", directory, *previous_state]
        finished = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if finished.returncode != 0:
            raise RuntimeError(f"map task {shard}/{shards} exited {finished.returncode}: {finished.stderr.strip()}")
        if partials:
            return []
        header = "shard-" + str(shard).zfill(len(str(shards - 1))) + f"-of-{shards}.json"
        with open(os.path.join(directory, header), "rb") as partial:
            header_bytes = partial.read()
        # The header names its documents file (shard-K-of-N.<run>.documents).
        documents = json.loads(header_bytes)["documentsFile"]
        with open(os.path.join(directory, documents), "rb") as partial:
            return [(documents, partial.read()), (header, header_bytes)]
    finally:
        if not partials:
            shutil.rmtree(directory, ignore_errors=True)


def main(argv):
    arguments = parse_arguments(argv)
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("bundlepress build")
    if arguments.master:
        builder = builder.master(arguments.master)
    spark = builder.getOrCreate()
    config = os.path.abspath(arguments.config)
    partials = os.path.abspath(arguments.partials) if arguments.partials else None
    if partials:
        # Partials of an earlier run would be merged with this one's if the shard count is the same.
        shutil.rmtree(partials, ignore_errors=True)
        os.makedirs(partials)
    shards, binary = arguments.shards, arguments.binary
    previous_state = previous_state_arguments(arguments.merge_arguments)
    try:
        # Found while the context lives (a binary shipped with --files is in its SparkFiles).
        merge_binary = binary_path(binary)
        tasks = spark.sparkContext.parallelize(range(shards), shards)
        collected = tasks.flatMap(lambda shard: map_task(shard, shards, config, binary, partials, previous_state)).collect()
    finally:
        spark.stop()

    directory = partials or tempfile.mkdtemp(prefix="bundlepress-partials-")
    try:
        # The header goes last: a partial is complete once its header is there.
        for name, data in sorted(collected, key=lambda file: file[0].endswith(".json")):
            with open(os.path.join(directory, name), "wb") as partial:
                partial.write(data)
        merge = [merge_binary, "build", "--config", config, "--merge", directory, *arguments.merge_arguments]
        return subprocess.run(merge).returncode
    finally:
        if not partials:
            shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
