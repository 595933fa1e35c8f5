#!/usr/bin/env python3
"""Checks `bundlepress schema` against configs the parser accepts and refuses.

    python3 scripts/check_schema.py BUNDLEPRESS_BINARY

Every pipeline config of the repository (pipeline.yml, bench/pipeline.yml, examples/*.yml) and
the configs below must be valid under the schema (and, for those below, build a dry run with
the example exports); every config in REFUSED must be refused by the schema and by the parser
(exit 78). Needs PyYAML and jsonschema. Prints `N passed, M failed`.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

import jsonschema
import yaml

ACCEPTED = {
    "every top-level key": """
project: demo
database: "(default)"
snapshot_time: 2026-11-01T00:00:00Z
output: public
gzip_level: 6
clients: [web]
duplicates: last-wins
previous: none
leavers: {keep: 7d}
retention: {builds: 3, min_age: 2h}
budgets: {max_bundle_bytes: 2MB, mode: warn}
exposure: {mode: warn}
warnings: warn
redact: {authors: [email, social.mastodon]}
headers:
  - source: /index.html
    headers: {Cache-Control: "no-cache"}
cors: {allow_origin: "https://example.com", paths: [/bundles/**]}
inputs:
  - exports/*.ndjson
  - path: exports/site/*.ndjson
    format: rest-ndjson
bundles:
  - id: front
    documents: [site/settings]
    max_bundle_bytes: 500kB
    queries:
      latest:
        collection: stories
        where:
          - [published, ==, true]
          - or: [[category, ==, tech], [category, ==, science]]
        order_by: [[publishedAt, desc]]
        limit: 10
      since:
        collection: stories
        where: [[publishedAt, '>=', !timestamp now-30d]]
        order_by: publishedAt
        start_after: [!timestamp 2026-01-01T00:00:00Z]
      by-author:
        collection: stories
        where: [[author, ==, !ref authors/zoe]]
        limit_to_last: 3
        order_by: [[score]]
""",
    "fan-out, collection groups, cursors at a document, cors off": """
project: demo
previous: none
cors: false
fields: {authors: [name, bio]}
inputs: [exports/*.ndjson]
bundles:
  - id: "stories-{category}"
    for_each: {field: category, collection: stories}
    queries:
      "stories-{category}":
        collection: stories
        where: [[category, ==, "{category}"]]
  - id: comments
    queries:
      recent-comments:
        collection_group: comments
        order_by: [[createdAt, desc]]
        end_before: {document: stories/agriculteurs-bretons-secheresse/comments/c001}
        limit: 5
""",
}

REFUSED = {
    "an unknown top-level key": "project: demo\ninputs: [exports/*.ndjson]\nbundles: [{id: a}]\noutptu: site\n",
    "gzip_level out of range": "project: demo\ngzip_level: 13\ninputs: [exports/*.ndjson]\nbundles: [{id: a}]\n",
    "an unknown duplicates policy": "project: demo\nduplicates: first\ninputs: [exports/*.ndjson]\nbundles: [{id: a}]\n",
    "no project": "inputs: [exports/*.ndjson]\nbundles: [{id: a}]\n",
    "an unknown bundle key": "project: demo\ninputs: [exports/*.ndjson]\nbundles: [{id: a, querys: {}}]\n",
    "an unknown query key": "project: demo\ninputs: [exports/*.ndjson]\nbundles: [{id: a, queries: {q: {collection: stories, limt: 3}}}]\n",
    "an unknown operator": "project: demo\ninputs: [exports/*.ndjson]\nbundles: [{id: a, queries: {q: {collection: stories, where: [[score, '=>', 3]]}}}]\n",
    "a filter with two items": "project: demo\ninputs: [exports/*.ndjson]\nbundles: [{id: a, queries: {q: {collection: stories, where: [[score, 3]]}}}]\n",
    "limit zero": "project: demo\ninputs: [exports/*.ndjson]\nbundles: [{id: a, queries: {q: {collection: stories, limit: 0}}}]\n",
    "an unknown exposure mode": "project: demo\nexposure: {mode: block}\ninputs: [exports/*.ndjson]\nbundles: [{id: a}]\n",
    "an unknown warnings mode": "project: demo\nwarnings: fail\ninputs: [exports/*.ndjson]\nbundles: [{id: a}]\n",
    "cors: true": "project: demo\ncors: true\ninputs: [exports/*.ndjson]\nbundles: [{id: a}]\n",
    "an unknown input format": "project: demo\ninputs: [{path: exports/a.json, format: csv}]\nbundles: [{id: a}]\n",
    # An unknown key in each mapping: a schema that left one open would accept it.
    "an unknown input key": "project: demo\ninputs: [{path: exports/a.json, hint: {}}]\nbundles: [{id: a}]\n",
    "an unknown hint": "project: demo\ninputs: [{path: exports/a.json, hints: {integers: [a]}}]\nbundles: [{id: a}]\n",
    "an unknown for_each key": "project: demo\ninputs: [exports/*.ndjson]\nbundles: [{id: 'a-{category}', for_each: {field: category, collection: stories, limit: 3}}]\n",
    "an unknown filter group": "project: demo\ninputs: [exports/*.ndjson]\nbundles: [{id: a, queries: {q: {collection: stories, where: [{xor: [[score, ==, 1]]}]}}}]\n",
    "an unknown cursor key": "project: demo\ninputs: [exports/*.ndjson]\nbundles: [{id: a, queries: {q: {collection: stories, order_by: score, start_at: {document: stories/a, doc: stories/b}}}}]\n",
    "an unknown retention key": "project: demo\nretention: {builds: 2, max_age: 1d}\ninputs: [exports/*.ndjson]\nbundles: [{id: a}]\n",
    "an unknown budgets key": "project: demo\nbudgets: {max_bytes: 1MB}\ninputs: [exports/*.ndjson]\nbundles: [{id: a}]\n",
    "an unknown leavers key": "project: demo\nleavers: {kept: 7d}\ninputs: [exports/*.ndjson]\nbundles: [{id: a}]\n",
    "an unknown exposure key": "project: demo\nexposure: {mode: warn, level: high}\ninputs: [exports/*.ndjson]\nbundles: [{id: a}]\n",
    "an unknown header rule key": "project: demo\nheaders: [{source: /a, headers: {X-A: b}, status: 200}]\ninputs: [exports/*.ndjson]\nbundles: [{id: a}]\n",
    "an unknown cors key": "project: demo\ncors: {allow_origin: '*', methods: [GET]}\ninputs: [exports/*.ndjson]\nbundles: [{id: a}]\n",
}


class ConfigLoader(yaml.SafeLoader):
    """YAML as the parser reads it: custom tags keep their text or items, dates stay strings."""


def tagged(loader, suffix, node):
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    return loader.construct_mapping(node, deep=True)


ConfigLoader.add_multi_constructor("!", tagged)
ConfigLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def main():
    binary = os.path.abspath(sys.argv[1])
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
    schema = json.loads(subprocess.run([binary, "schema"], check=True, capture_output=True, text=True).stdout)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    passed = failed = 0

    def record(ok, what, detail=""):
        nonlocal passed, failed
        print(("ok " if ok else "not ok ") + what + ("" if ok or not detail else f"\n  {detail}"))
        passed, failed = passed + ok, failed + (not ok)

    repository_configs = ["pipeline.yml", "bench/pipeline.yml"] + sorted(glob.glob("examples/*.yml", root_dir=root))
    for name in repository_configs:
        errors = [f"{list(e.path)}: {e.message}" for e in validator.iter_errors(yaml.load(open(os.path.join(root, name)), Loader=ConfigLoader))]
        record(not errors, f"schema accepts {name}", "; ".join(errors[:3]))

    with tempfile.TemporaryDirectory() as scratch:
        os.symlink(os.path.join(root, "exports"), os.path.join(scratch, "exports"))

        def parser_status(text):
            path = os.path.join(scratch, "pipeline.yml")
            with open(path, "w") as file:
                file.write(text)
            return subprocess.run([binary, "build", "--dry-run", "--quiet", "-c", path], capture_output=True, text=True)

        for what, text in ACCEPTED.items():
            errors = [f"{list(e.path)}: {e.message}" for e in validator.iter_errors(yaml.load(text, Loader=ConfigLoader))]
            record(not errors, f"schema accepts {what}", "; ".join(errors[:3]))
            result = parser_status(text)
            record(result.returncode == 0, f"parser accepts {what}", result.stderr.strip())
        for what, text in REFUSED.items():
            record(not validator.is_valid(yaml.load(text, Loader=ConfigLoader)), f"schema refuses {what}")
            result = parser_status(text)
            record(result.returncode == 78, f"parser refuses {what}", f"exit {result.returncode}: {result.stderr.strip()}")

    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
