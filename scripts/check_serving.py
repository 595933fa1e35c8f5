#!/usr/bin/env python3
"""Lint the responses of `bundlepress serve` with REDbot (PyPI `redbot`).

Starts the server on a free loopback port over the example site, waits for its
"Serving ... at URL" line, then runs `redbot -o har` on the manifest, the first
bundle of the manifest (REDbot checks gzip negotiation itself) and the HTML
page (the explorer, which `bundlepress serve` shows from the binary). Prints every WARN note and fails when
any note is BAD (REDbot's error level) or REDbot cannot check a URL.

Usage: scripts/check_serving.py [path/to/bundlepress] [site-dir]
"""
import json
import os
import select
import signal
import subprocess
import sys

BINARY = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/bundlepress"
SITE = sys.argv[2] if len(sys.argv) > 2 else "site"


def start_server():
    server = subprocess.Popen(
        [BINARY, "serve", "--dir", SITE, "--port", "0", "--quiet"],
        stdout=subprocess.PIPE, text=True)
    ready, _, _ = select.select([server.stdout], [], [], 30)
    line = server.stdout.readline() if ready else ""
    if not line.startswith("Serving "):
        server.kill()
        sys.exit(f"bundlepress serve did not print its Serving line within 30 s: {line!r}")
    return server, line.rsplit(" ", 1)[1].strip()


def redbot_notes(url):
    result = subprocess.run(["redbot", "-o", "har", url], capture_output=True, text=True, timeout=180)
    if result.returncode != 0:
        sys.exit(f"redbot failed on {url}:\n{result.stderr}")
    entries = json.loads(result.stdout)["log"]["entries"]
    if not entries:
        sys.exit(f"redbot returned no response for {url}")
    return entries[0]["_red_messages"]


def main():
    with open(os.path.join(SITE, "bundles", "manifest.json")) as manifest:
        bundle_url = json.load(manifest)["bundles"][0]["url"]
    server, base = start_server()
    targets = [base + "bundles/manifest.json", base + bundle_url, base]
    failures = 0
    try:
        for url in targets:
            notes = redbot_notes(url)
            bad = [note for note in notes if note["level"] == "BAD"]
            warnings = [note for note in notes if note["level"] == "WARN"]
            print(f"== {url}: {len(notes)} notes, {len(warnings)} warnings, {len(bad)} errors")
            for note in warnings + bad:
                print(f"  {note['level']:4} {note['note_id']}: {note['summary']}")
            failures += len(bad)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    if failures:
        sys.exit(f"REDbot reported {failures} error-level notes")
    print("REDbot: no error-level notes")


if __name__ == "__main__":
    main()
