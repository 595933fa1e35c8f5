#!/usr/bin/env python3
"""A simulated week of returning clients on the 100k benchmark (issue 33): what the site-wide
ledger (leavers and missing documents for every bundle) adds to the bundles' bytes.

The benchmark site (bench/pipeline.yml: `all`, every document, and `latest-stories`, a second
bundle over the same stories) is built once as a new site, then 7 times, one a day: before each
build 1 % of the stories are edited (a new title), 0.5 % of the published ones unpublished and
0.2 % deleted, each with an updateTime one day later than the last. Each build publishes into
one site (with its state), and the same inputs are also built as a new site (`--previous none`,
what a fresh client needs): the difference in raw bundle bytes is what returning clients cost.

    python3 bench/week.py BINARY EXPORT WORKDIR [SEED [DAYS]]

Prints one line per build and a summary; exits 1 when a build adds more than 5 %.
"""
import json
import os
import random
import shutil
import subprocess
import sys
from datetime import datetime, timedelta, timezone

binary, export, work = sys.argv[1:4]
seed = int(sys.argv[4]) if len(sys.argv) > 4 else 33
days = int(sys.argv[5]) if len(sys.argv) > 5 else 7
rng = random.Random(seed)
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
shutil.copy(os.path.join(repo, "bench", "pipeline.yml"), os.path.join(work, "pipeline.yml"))
lines = open(export, encoding="utf-8").read().splitlines()
docs = [json.loads(line) for line in lines if line]
newest = max(datetime.fromisoformat(d["updateTime"].replace("Z", "+00:00")) for d in docs)


def write():
    with open(os.path.join(work, "export.ndjson"), "w", encoding="utf-8") as out:
        for d in docs:
            out.write(json.dumps(d, separators=(",", ":"), ensure_ascii=False) + "\n")


def build(output, *extra):
    env = dict(os.environ)
    env.pop("CI", None)
    run = subprocess.run([binary, "build", "--json", "--output", output, *extra], cwd=work, env=env, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"build {output} failed ({run.returncode}): {run.stderr}")
    report = json.loads(run.stdout)
    return {b["id"]: b for b in report["bundles"]}, report["seconds"]


def is_story(d):
    parts = d["name"].split("/documents/", 1)[1].split("/")
    return len(parts) == 2 and parts[0] == "stories"


write()
build("site", "--previous", "none")
rows = []
for day in range(1, days + 1):
    stamp = (newest + timedelta(days=day)).astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000000Z")
    stories = [i for i, d in enumerate(docs) if is_story(d)]
    count = len(stories)
    edited = rng.sample(stories, max(1, count // 100))
    for i in edited:
        docs[i]["fields"]["title"] = {"stringValue": f"Edited on day {day}: " + docs[i]["fields"].get("title", {}).get("stringValue", "")}
        docs[i]["updateTime"] = stamp
    published = [i for i in stories if docs[i]["fields"].get("published", {}).get("booleanValue")]
    for i in rng.sample(published, max(1, count // 200)):
        docs[i]["fields"]["published"] = {"booleanValue": False}
        docs[i]["updateTime"] = stamp
    deleted = set(rng.sample(stories, max(1, count // 500)))
    docs = [d for i, d in enumerate(docs) if i not in deleted]
    write()
    site, seconds = build("site")
    fresh, _ = build(f"fresh-{day}", "--previous", "none")
    shutil.rmtree(os.path.join(work, f"fresh-{day}"))
    total = sum(b["bytes"] for b in site.values())
    base = sum(b["bytes"] for b in fresh.values())
    row = {
        "day": day, "bytes": total, "fresh_bytes": base, "added": (total - base) / base, "seconds": seconds,
        "bundles": {i: {"bytes": b["bytes"], "fresh_bytes": fresh[i]["bytes"], "leavers": b["leavers"], "missing": b["missing"], "documents": b["documents"]} for i, b in site.items()},
    }
    rows.append(row)
    per = ", ".join(f"{i}: {b['leavers']} leavers {b['missing']} missing, {100 * (b['bytes'] - fresh[i]['bytes']) / fresh[i]['bytes']:+.2f} %" for i, b in sorted(site.items()))
    print(f"day {day}: {total} bytes vs {base} fresh ({100 * row['added']:+.3f} %); {per}; build {seconds:.2f} s", flush=True)

worst = max(r["added"] for r in rows)
week_bytes = sum(r["bytes"] for r in rows)
week_fresh = sum(r["fresh_bytes"] for r in rows)
print(f"week: {week_bytes} bytes vs {week_fresh} fresh ({100 * (week_bytes - week_fresh) / week_fresh:+.3f} %), worst day {100 * worst:+.3f} % (bound 5 %)")
json.dump(rows, open(os.path.join(work, "week.json"), "w"), indent=1)
sys.exit(0 if worst <= 0.05 else 1)
