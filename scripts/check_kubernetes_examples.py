#!/usr/bin/env python3
"""Checks examples/kubernetes/: both Jobs parse, the map Job is Indexed with as many
completions as --shards says, both mount the same claim in the same folder, the merge reads
the partials the map writes, and both read the site's previous state from the same --output. Usage: scripts/check_kubernetes_examples.py [BINARY]; given a
bundlepress binary, it also runs the Jobs' commands on the example site: every map task (with
JOB_COMPLETION_INDEX set, as the Job sets it), then the merge, into a temporary directory."""
import os
import shlex
import subprocess
import sys
import tempfile

import yaml

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def job(name):
    with open(os.path.join(ROOT, "examples", "kubernetes", name)) as file:
        document = yaml.safe_load(file)
    assert document["kind"] == "Job" and document["apiVersion"] == "batch/v1", name
    return document


def command(document):
    container = document["spec"]["template"]["spec"]["containers"][0]
    words = container["command"]
    if words[:2] == ["sh", "-c"]:
        words = shlex.split(words[2].split("&&")[0])
    return words, container


def option(words, name):
    return words[words.index(name) + 1]


map_job, merge_job = job("map-job.yaml"), job("merge-job.yaml")
map_words, map_container = command(map_job)
merge_words, merge_container = command(merge_job)
assert map_job["spec"]["completionMode"] == "Indexed"
assert option(map_words, "--shard") == "auto"
assert int(option(map_words, "--shards")) == map_job["spec"]["completions"], "completions and --shards differ"
assert option(map_words, "--partial") == option(merge_words, "--merge"), "the merge must read where the map writes"
assert option(map_words, "--output") == option(merge_words, "--output"), "the map tasks must read the previous state the merge reads"
claims = {j["spec"]["template"]["spec"]["volumes"][0]["persistentVolumeClaim"]["claimName"] for j in (map_job, merge_job)}
assert len(claims) == 1, f"the Jobs mount different claims: {claims}"
assert map_container["workingDir"] == merge_container["workingDir"]

if len(sys.argv) > 1:
    binary = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as partials:
        shards = int(option(map_words, "--shards"))
        for index in range(shards):
            arguments = map_words[1:]
            arguments[arguments.index("--partial") + 1] = partials
            arguments[arguments.index("--output") + 1] = os.path.join(partials, "site")
            environment = dict(os.environ, JOB_COMPLETION_INDEX=str(index))
            subprocess.run([binary, *arguments, "--quiet", "--previous", "none"], cwd=ROOT, env=environment, check=True)
        arguments = merge_words[1:]
        arguments[arguments.index("--merge") + 1] = partials
        arguments[arguments.index("--output") + 1] = os.path.join(partials, "site")
        subprocess.run([binary, *arguments, "--quiet", "--previous", "none"], cwd=ROOT, check=True)
        assert os.path.exists(os.path.join(partials, "site", "bundles", "manifest.json"))
print("examples/kubernetes: the map and merge Jobs agree" + (" and their commands build the example site" if len(sys.argv) > 1 else ""))
