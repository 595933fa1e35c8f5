#!/usr/bin/env python3
"""Samples the resident set size of a process while a command runs.

    bench/rss_sampler.py OUT.tsv NAME -- CMD [ARGS...]

Runs CMD and, every 10 ms, writes "<CLOCK_MONOTONIC seconds>\t<RSS bytes>" to OUT.tsv for the
descendant of CMD whose command name is NAME (CMD itself may be it, or a wrapper such as
`perf record`). Exits with CMD's status. report.py lines the samples up with the perf
timeline (perf record -k CLOCK_MONOTONIC) to say in which stage the peak happens.
"""
import os, subprocess, sys, time

PAGE = os.sysconf("SC_PAGE_SIZE")


def children(pid):
    out = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out += [int(c) for c in f.read().split()]
    except OSError:
        pass
    return out


def find(root, name):
    todo = [root]
    while todo:
        pid = todo.pop()
        try:
            with open(f"/proc/{pid}/comm") as f:
                if f.read().strip() == name:
                    return pid
        except OSError:
            continue
        todo += children(pid)
    return None


def main():
    if len(sys.argv) < 5 or sys.argv[3] != "--":
        sys.exit(__doc__)
    out_path, name, cmd = sys.argv[1], sys.argv[2], sys.argv[4:]
    proc = subprocess.Popen(cmd)
    target = None
    with open(out_path, "w") as out:
        while proc.poll() is None:
            if target is None:
                target = find(proc.pid, name)
            if target is not None:
                try:
                    with open(f"/proc/{target}/statm") as f:
                        rss = int(f.read().split()[1]) * PAGE
                    out.write(f"{time.monotonic():.4f}\t{rss}\n")
                except (OSError, ValueError, IndexError):
                    target = None
            time.sleep(0.01)
    sys.exit(proc.returncode)


if __name__ == "__main__":
    main()
