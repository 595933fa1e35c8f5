#!/usr/bin/env python3
"""Turns a bench/run.sh run directory into the Markdown report.

    bench/report.py RUN_DIR [--top 20]

Reads the /usr/bin/time -v outputs (*.time), the build reports (bp-*.out), the Python
baseline's JSON (python.out) and, when present, the perf samples (perf.script.gz), and
prints: the stage table, the targets, and the hottest functions of the profile.
See bench/README.md for what each figure means and how the stages are attributed.
"""
import argparse, glob, gzip, json, os, re, shutil, subprocess, sys
from collections import Counter, defaultdict

PERIOD = 0.001  # perf record -e cpu-clock -c 1000000: one sample per 1 ms of CPU time
MB = 1e6  # MB means 10^6 bytes throughout (the export is "138 MB" = 137.6e6 bytes)


def read_time(path):
    """/usr/bin/time -v → {wall, user, sys, cpu, rss (bytes)}."""
    if not os.path.exists(path):
        return None
    t = {}
    for line in open(path):
        key, _, value = line.strip().rpartition(": ")
        if key.startswith("Elapsed (wall clock)"):
            parts = [float(p) for p in value.split(":")]
            t["wall"] = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
        elif key == "User time (seconds)":
            t["user"] = float(value)
        elif key == "System time (seconds)":
            t["sys"] = float(value)
        elif key == "Maximum resident set size (kbytes)":
            t["rss"] = int(value) * 1024
        elif key == "Exit status":
            t["status"] = int(value)
    t["cpu"] = t.get("user", 0.0) + t.get("sys", 0.0)
    return t


def read_times(path):
    """The run in `path` and its repeats (`NAME.2.time`, …): their median by wall time, with the
    walls of every run in `runs` (their order), the largest RSS of any as its `rss`."""
    first = read_time(path)
    if not first:
        return None
    stem = path[: -len(".time")]
    repeats = sorted(glob.glob(stem + ".[0-9]*.time"), key=lambda f: int(f[len(stem) + 1 : -len(".time")]))
    runs = [first] + [read_time(f) for f in repeats]
    median = dict(sorted(runs, key=lambda t: t["wall"])[(len(runs) - 1) // 2])
    median["runs"] = [t["wall"] for t in runs]
    median["rss"] = max(t["rss"] for t in runs)
    return median


def read_json(path):
    try:
        with open(path) as f:
            return json.loads(f.read())
    except (OSError, ValueError):
        return None


def read_kv(path):
    out = {}
    if os.path.exists(path):
        for line in open(path):
            k, _, v = line.rstrip("\n").partition("=")
            out[k] = v
    return out


# ---------------------------------------------------------------------------------------------
# Stage attribution from perf samples.
#
# Each sample's call chain (leaf first) is walked from the leaf towards the root; the first
# frame that names a stage decides it. Inner stages are listed before the outer ones that
# contain them (gzip/sha256/encode/query inside BuiltBundle.build, everything inside main), so
# malloc, memcpy, retain/release and page faults are charged to the stage that called them.
STAGES = ["parse", "config", "query", "assemble", "encode", "sha256", "gzip", "write", "teardown", "other"]
RULES = [  # (stage, regex on the demangled symbol or the DSO)
    ("gzip", re.compile(r"libz\.so|^(deflate|longest_match|fill_window|compress_block|send_tree|build_tree|"
                        r"pqdownheap|gen_bitlen|gen_codes|_tr_|crc32|adler32|zcalloc|zcfree)|"
                        r"ParallelGzipCompressor|ZStream|GzipCompressor|DeflateSegment|libdeflate|^(deflate_|libdeflate_|inflate)")),
    ("sha256", re.compile(r"(?i)sha256|SHA256|HashFunction|sha_block|CCryptoBoringSSL_SHA")),
    ("encode", re.compile(r"ElementEncoder|BundleWriter\.encode|BundleWriter\.encodeDocuments|EncodedBundle|JSONWriter")),
    ("query", re.compile(r"DocumentStore\.evaluate|QueryPlan|TopN|Query\.matches|matchesContent|Value\.compare|"
                         r"DocumentStore\.forEachCandidate")),
    ("assemble", re.compile(r"BundleWriter\.addDocument|BundleWriter\.addNamedQuery|BuiltBundle\.build|BundledQuery")),
    ("write", re.compile(r"SitePublisher|Manifest\.|BuildReport|JSONEncoder")),
    ("teardown", re.compile(r"destroy (for|of) (LoadedInputs|BuiltBundle|DocumentStore|EncodedBundle)")),
    ("config", re.compile(r"PipelineConfig|QueryConfigParser|Yams|ConfigNode|resolvingQueries|checkCollectionsExist")),
    ("parse", re.compile(r"LoadedInputs|ExportReader|NDJSONDocumentSource|LineReader|JSONParser|RESTRecordDecoder|"
                         r"DocumentReRooter|DocumentStore\.insert|StoredCollection\.insert|InputFile")),
]


def demangle(symbols):
    tool = shutil.which("swift-demangle")
    if not tool:
        swift = shutil.which("swift")
        cand = swift and os.path.join(os.path.dirname(os.path.realpath(swift)), "swift-demangle")
        tool = cand if cand and os.path.exists(cand) else None
    if not tool or not symbols:
        return {s: s for s in symbols}
    out = subprocess.run([tool, "--simplified", "--compact"], input="\n".join(symbols) + "\n",
                         capture_output=True, text=True).stdout.split("\n")
    return {s: (out[i] if i < len(out) and out[i] else s) for i, s in enumerate(symbols)}


def read_perf(path):
    """perf script -F tid,time,ip,sym,dso (with call chains) → list of (time, tid, [(sym, dso)])."""
    head = re.compile(r"^\s*(\d+)\s+(\d+\.\d+):")
    frame = re.compile(r"^\s+[0-9a-f]+\s+(.*?)\s+\((.*)\)\s*$")
    samples, cur = [], None
    with gzip.open(path, "rt", errors="replace") as f:
        for line in f:
            m = head.match(line)
            if m:
                cur = (float(m.group(2)), int(m.group(1)), [])
                samples.append(cur)
                continue
            m = frame.match(line)
            if m and cur is not None:
                cur[2].append((m.group(1), m.group(2)))
    return samples


def attribute(samples, bin_s=0.02):
    syms = sorted({s for _, _, fr in samples for s, _ in fr})
    names = demangle(syms)
    cache = {}

    def stage_of(frames):
        for sym, dso in frames:
            key = (sym, dso)
            if key not in cache:
                text = names.get(sym, sym)
                cache[key] = next((st for st, rx in RULES if rx.search(text) or rx.search(os.path.basename(dso))), None)
            if cache[key]:
                return cache[key]
        return "other"

    t0 = min(t for t, _, _ in samples)
    t1 = max(t for t, _, _ in samples)
    cpu = Counter()
    leaf = Counter()
    bins = defaultdict(Counter)
    threads = set()
    for t, tid, frames in samples:
        st = stage_of(frames)
        cpu[st] += 1
        threads.add(tid)
        if frames:
            leaf[(names.get(frames[0][0], frames[0][0]), os.path.basename(frames[0][1]), st)] += 1
        bins[int((t - t0) / bin_s)] += Counter({st: 1})
    span = t1 - t0 + bin_s
    nbins = int((t1 - t0) / bin_s) + 1
    wall = Counter()
    for b in range(nbins):
        c = bins.get(b)
        if not c:
            wall["idle"] += bin_s
            continue
        n = sum(c.values())
        for st, k in c.items():
            wall[st] += bin_s * k / n
    dominant = {b: c.most_common(1)[0][0] for b, c in bins.items()}
    return {"cpu": cpu, "wall": wall, "span": span, "samples": len(samples), "leaf": leaf, "t0": t0, "t1": t1,
            "bin": bin_s, "dominant": dominant, "threads": len(threads),
            "depth": sum(len(f) for _, _, f in samples) / max(1, len(samples))}


def rss_by_stage(path, prof):
    """rss_sampler.py samples (same CLOCK_MONOTONIC as perf -k) → {stage: max RSS}, (peak, stage)."""
    if not prof or not os.path.exists(path):
        return None
    per, rows = {}, []
    for line in open(path):
        try:
            t, rss = line.split()
            rows.append((float(t), int(rss)))
        except ValueError:
            continue
    top = max((r for _, r in rows), default=0)
    peak = (top, None, 0.0)
    for t, rss in rows:
        if t < prof["t0"]:
            st = "startup"
        elif t > prof["t1"]:
            st = "exit"
        else:
            b = int((t - prof["t0"]) / prof["bin"])
            st = prof["dominant"].get(b) or prof["dominant"].get(b - 1) or "idle"
        per[st] = max(per.get(st, 0), rss)
        if peak[1] is None and rss >= 0.98 * top:  # where RSS first gets within 2% of its peak
            peak = (top, st, t - prof["t0"])
    return per, peak


def others_cores(load, own_cpu, wall):
    """CPU the rest of the machine used during a run, in cores, from the /proc/stat lines."""
    try:
        a = [int(x) for x in load["stat_before"].split()[1:9]]
        b = [int(x) for x in load["stat_after"].split()[1:9]]
    except (KeyError, ValueError):
        return None
    busy = sum(y - x for i, (x, y) in enumerate(zip(a, b)) if i not in (3, 4))  # all but idle, iowait
    return max(0.0, busy / os.sysconf("SC_CLK_TCK") - own_cpu) / wall if wall else None


# ---------------------------------------------------------------------------------------------
def short(sym, n=110):
    sym = sym if len(sym) <= n else sym[:n - 1] + "…"
    return sym.replace("|", "\\|").replace("`", "'")


def fmt_s(x):
    return "—" if x is None else f"{x:.2f}"


def fmt_mbs(nbytes, secs):
    return "—" if not nbytes or not secs else f"{nbytes / MB / secs:.1f}"


def fmt_rss(b):
    return "—" if not b else (f"{b / 2**30:.2f} GiB" if b >= 2**30 else f"{b / 2**20:.0f} MiB")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run")
    ap.add_argument("--top", type=int, default=20)
    a = ap.parse_args()
    R = lambda name: os.path.join(a.run, name)  # noqa: E731

    info = read_kv(R("info"))
    export_bytes = int(info.get("export_bytes", "0"))
    full, parse = read_times(R("bp-full.time")), read_time(R("bp-parse.time"))
    noop, rep_noop = read_time(R("bp-noop.time")), read_json(R("bp-noop.out"))
    gz1, gz9 = read_time(R("bp-gzip1.time")), read_time(R("bp-gzip9.time"))
    perf_t = read_time(R("bp-perf.time"))
    g6, g9, p6 = read_times(R("gzip-6.time")), read_time(R("gzip-9.time")), read_time(R("pigz-6.time"))
    py_t = read_time(R("python.time"))
    rep, rep1, rep9 = read_json(R("bp-full.out")), read_json(R("bp-gzip1.out")), read_json(R("bp-gzip9.out"))
    py = read_json(R("python.out"))
    if not full or not rep:
        sys.exit("report.py: bp-full did not run (no bp-full.time / bp-full.out)")
    raw = sum(b["bytes"] for b in rep["bundles"])
    gzb = sum(b["gzipBytes"] for b in rep["bundles"])
    docs = rep["inputDocuments"]
    size = lambda n: int(open(R(n)).read()) if os.path.exists(R(n)) else None  # noqa: E731
    loads = {n: read_kv(R(n + ".load")) for n in ["bp-full", "bp-noop", "bp-parse", "bp-gzip9", "bp-gzip1", "bp-perf", "gzip-6", "gzip-9", "pigz-6", "python"]}

    prof, rss = None, None
    if os.path.exists(R("perf.script.gz")):
        samples = read_perf(R("perf.script.gz"))
        if samples:
            prof = attribute(samples)

    out = []
    p = out.append
    p(f"## BundlePress benchmark: N={int(info.get('n', 0)):,} documents, export {export_bytes / MB:.1f} MB "
      f"({docs:,} docs read), {info.get('cores')} cores ({info.get('cpu', '?')}), commit {info.get('commit')}, {info.get('date')}")
    p("")
    p(f"Output: {len(rep['bundles'])} bundles, {raw / MB:.1f} MB raw → {gzb / MB:.1f} MB gzip (gzip_level 6, the default): "
      + ", ".join(f"`{b['id']}` {b['documents']:,} docs {b['bytes'] / MB:.1f} MB → {b['gzipBytes'] / MB:.1f} MB" for b in rep["bundles"]))
    p("")
    p("\"other procs\" = CPU used by everything else on the machine during that run, in cores (from /proc/stat); "
      "with 2 cores, anything above ~0 means the run competed for CPU and its wall time is inflated. CPU s is the "
      "steadier figure.")
    p("")
    p("MB = 10^6 bytes. \"MB/s\" = bytes ÷ wall seconds; \"MB/CPU-s\" = bytes ÷ (user+sys) seconds (less sensitive to other "
      "load on the machine). Parse rates count export bytes; encode, sha256 and gzip rates count raw bundle bytes.")
    p("")
    p("| stage | seconds (wall) | CPU s (user+sys) | cores used | MB/s | MB/CPU-s | peak RSS | other procs (cores) / load avg |")
    p("|---|---:|---:|---:|---:|---:|---:|---|")

    def row(label, wall, cpu, nbytes, rss=None, load=None):
        cores = f"{cpu / wall:.2f}" if wall and cpu else "—"
        ld = ""
        if load:
            oc = others_cores(load, cpu or 0.0, wall)
            ld = (f"{oc:.2f} / " if oc is not None else "") + f"{load.get('before', '?').split()[0]}→{load.get('after', '?').split()[0]}"
        p(f"| {label} | {fmt_s(wall)} | {fmt_s(cpu)} | {cores} | {fmt_mbs(nbytes, wall)} | {fmt_mbs(nbytes, cpu)} | {fmt_rss(rss)} | {ld} |")

    row("**BundlePress total** (`bp-full`: both bundles, gzip_level 6, the default; MB = export)", full["wall"], full["cpu"], export_bytes,
        full["rss"], loads["bp-full"])
    if parse:
        row("  parse: read + JSON + decode + index, measured (`bp-parse`: latest-stories only)", parse["wall"], parse["cpu"],
            export_bytes, parse["rss"], loads["bp-parse"])
    if prof:
        wall_total = sum(prof["wall"].values())
        cpu_total = sum(prof["cpu"].values())
        basis = {"parse": export_bytes, "encode": raw, "sha256": raw, "gzip": raw, "write": raw + gzb}
        label = {"parse": "parse: read + JSON + decode + index", "config": "config (YAML, query resolution)",
                 "query": "query evaluation", "assemble": "assemble (sort keys, addDocument checks)",
                 "encode": "encode (bundle JSON, 2 threads)", "sha256": "sha256 of the raw bundle",
                 "gzip": "gzip, libdeflate level 6 (ParallelGzipCompressor, 2 threads)", "write": "write files + manifest",
                 "teardown": "teardown (freeing documents and bundles)",
                 "other": "other (startup, unattributed)", "idle": "idle (no thread on CPU)"}
        rss = rss_by_stage(R("rss.tsv"), prof)
        for st in STAGES + ["idle"]:
            w = prof["wall"].get(st, 0.0) / wall_total * full["wall"]
            c = prof["cpu"].get(st, 0) / cpu_total * full["cpu"] if st != "idle" else None
            if w < 0.005 and not c:
                continue
            row(f"  {label[st]} (profile share × `bp-full`)", w, c, basis.get(st), rss[0].get(st) if rss else None)
    if noop and rep_noop:
        row(f"BundlePress, nothing changed (`bp-noop`: `bp-full` again on its output; up to date: {str(rep_noop.get('upToDate', False)).lower()})",
            noop["wall"], noop["cpu"], export_bytes, noop["rss"], loads["bp-noop"])
    for name, t, rp in [("bp-gzip9", gz9, rep9), ("bp-gzip1", gz1, rep1)]:
        if t and rp:
            level = name[-1]
            row(f"BundlePress, gzip_level {level} (`{name}`; MB = export; .gz {sum(b['gzipBytes'] for b in rp['bundles']) / MB:.1f} MB)",
                t["wall"], t["cpu"], export_bytes, t["rss"], loads[name])
    for name, t, label in [("gzip-6", g6, "`gzip -6` of the same raw bundles"), ("gzip-9", g9, "`gzip -9` of the same raw bundles"),
                           ("pigz-6", p6, "`pigz -6 -p 2` of the same raw bundles")]:
        if t:
            row(f"{label} (MB = raw in; out {size(name + '.bytes') / MB:.1f} MB)", t["wall"], t["cpu"], raw, t["rss"], loads[name])
    if py_t and py:
        ph = py["phases_s"]
        row("**Python Admin SDK path total** (`--decode sdk`, gzip 9; MB = export)", py_t["wall"], py_t["cpu"], export_bytes,
            py_t["rss"], loads["python"])
        pyraw = sum(b["raw"] for b in py["bundles"].values())
        for label, keys, nbytes in [("  import", ["import"], None),
                                    ("  parse: read + json + decode (its timers)", ["read", "parse", "decode"], export_bytes),
                                    ("  query (local evaluation)", ["query"], None),
                                    ("  encode: add + build (MB = its raw bundles)", ["add", "build"], pyraw),
                                    ("  gzip level 9", ["gzip"], pyraw), ("  write", ["write"], None)]:
            row(label, sum(ph.get(k, 0.0) for k in keys), None, nbytes)
    p("")

    # --- targets -----------------------------------------------------------------------------
    p("### Targets")
    p("")
    p("| target | measured | limit | met? |")
    p("|---|---:|---:|---|")
    ok = lambda c: "**yes**" if c else "**no**"  # noqa: E731
    if g6:
        r = full["wall"] / g6["wall"]
        runs = lambda t: " / ".join(f"{w:.2f}" for w in t["runs"])  # noqa: E731
        medians = f" (medians of {len(full['runs'])} and {len(g6['runs'])}: {runs(full)} s and {runs(g6)} s)" if len(full["runs"]) > 1 else ""
        p(f"| total ≤ 0.6× `gzip -6` of the same output (wall) | {full['wall']:.2f} s / {g6['wall']:.2f} s = {r:.2f}×{medians} | 0.60× | {ok(r <= 0.6)} |")
        rc = full["cpu"] / g6["cpu"]
        p(f"| (same in CPU s, user+sys; BundlePress also parses, plans and encodes) | {full['cpu']:.2f} / {g6['cpu']:.2f} = {rc:.2f}× | — | — |")
    if g9 and rep:
        ours, zlib9 = sum(b["gzipBytes"] for b in rep["bundles"]), size("gzip-9.bytes")
        r = ours / zlib9
        p(f"| .gz bytes ≤ 1.01× `gzip -9`'s (zlib level 9) | {ours / MB:.2f} MB / {zlib9 / MB:.2f} MB = {r:.4f}× | 1.01× | {ok(r <= 1.01)} |")
    if py_t:
        r = py_t["wall"] / full["wall"]
        p(f"| ≥ 20× faster than the Python path (wall) | {py_t['wall']:.1f} s / {full['wall']:.2f} s = {r:.1f}× | ≥ 20× | {ok(r >= 20)} |")
        rc = py_t["cpu"] / full["cpu"]
        p(f"| (same in CPU s) | {py_t['cpu']:.1f} / {full['cpu']:.2f} = {rc:.1f}× | ≥ 20× | {ok(rc >= 20)} |")
    r = full["rss"] / export_bytes
    where = ""
    if prof and rss and rss[1][1]:
        where = f" (RSS gets within 2% of its peak during **{rss[1][1]}**, {rss[1][2]:.1f} s into the profiled run)"
    p(f"| peak RSS ≤ 1× export size | {fmt_rss(full['rss'])} = {full['rss'] / MB:.0f} MB / {export_bytes / MB:.1f} MB = {r:.2f}×{where} | 1.00× | {ok(r <= 1)} |")
    if noop and rep_noop:
        r = noop["wall"] / full["wall"]
        p(f"| cron no-op ≤ 5% of a full build (wall; `bp-noop` / `bp-full`, and it must be up to date) | {noop['wall']:.2f} s / {full['wall']:.2f} s = "
          f"{100 * r:.1f} % | 5 % | {ok(r <= 0.05 and rep_noop.get('upToDate', False))} |")
    cores = full["cpu"] / full["wall"]
    p(f"| use both cores (average cores busy over the whole build) | {cores:.2f} | {info.get('cores')} | "
      f"{'partly' if cores < 1.5 else 'yes'} |")
    p("")

    if prof:
        p(f"### Profile of `bp-perf` (perf record -e cpu-clock -c 1000000 -g: one sample per ms of CPU; {prof['samples']:,} samples, "
          f"{prof['threads']} threads, {prof['span']:.2f} s from first to last sample, mean call-chain depth {prof['depth']:.1f}; "
          f"/usr/bin/time around perf: {perf_t['wall'] if perf_t else 0:.2f} s wall)")
        p("")
        p("| stage | samples | CPU s | CPU share | wall s (timeline) | wall share | cores busy in stage |")
        p("|---|---:|---:|---:|---:|---:|---:|")
        wall_total = sum(prof["wall"].values())
        cpu_total = sum(prof["cpu"].values())
        for st in STAGES + ["idle"]:
            c, w = prof["cpu"].get(st, 0), prof["wall"].get(st, 0.0)
            if not c and w < 0.005:
                continue
            par = f"{c * PERIOD / w:.2f}" if w and c else "—"
            p(f"| {st} | {c:,} | {c * PERIOD:.2f} | {100 * c / cpu_total:.1f}% | {w:.2f} | {100 * w / wall_total:.1f}% | {par} |")
        p("")
        p(f"Hottest functions (self samples, leaf frame; the stage is the one the call chain was charged to):")
        p("")
        p("| self % | function | DSO | stage |")
        p("|---:|---|---|---|")
        for (sym, dso, st), n in prof["leaf"].most_common(a.top):
            p(f"| {100 * n / cpu_total:.1f}% | `{short(sym)}` | {dso} | {st} |")
        p("")
        p("Top functions within each stage (self samples; % of the stage's samples):")
        p("")
        for st in STAGES:
            total = prof["cpu"].get(st, 0)
            if total < 20:
                continue
            top = [(k, n) for k, n in prof["leaf"].most_common() if k[2] == st][:6]
            p(f"- **{st}** ({total:,} samples): " + "; ".join(f"`{short(k[0], 70)}` ({k[1]}) {100 * n / total:.0f}%" for k, n in top))
        p("")
    print("\n".join(out))


if __name__ == "__main__":
    main()
