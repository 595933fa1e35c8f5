#!/usr/bin/env python3
"""The build's stages use only the stages before them.

Sources/Publishing has one folder per stage, in the order a build runs them (docs/design.md,
"The build, stage by stage"). A type a folder declares may be named in that folder and in the
folders after it, never before: values go forward, a stage never calls back into a later one.
`Build/`'s error, report and progress types name every stage's outcome, so every folder may use
them. Prints each use of a later stage's type with its file and line, and exits 1 if there is one.

Usage: scripts/ci/check-stages.py
"""
import pathlib
import re
import sys

STAGES = ["Support", "State", "Reading", "Selecting", "Checking", "Planning", "Guarding", "Writing", "Publishing", "UpToDate", "Verifying", "Build"]
SHARED = {"BuildError", "BuildReport", "BuildEvent", "BuildCheckpoint"}
ROOT = pathlib.Path(__file__).resolve().parents[2] / "Sources" / "Publishing"
DECLARATION = re.compile(r"^(?:(?:public|package|internal|private|fileprivate|final|indirect)\s+)*(?:struct|enum|class|actor|protocol|typealias)\s+(\w+)", re.M)


def code(path):
    """The file's text without comments and string literals, line breaks kept."""
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r'"""[\s\S]*?"""', lambda m: "\n" * m.group(0).count("\n"), text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"//[^\n]*", "", text)


def main():
    folders = sorted(p.name for p in ROOT.iterdir() if p.is_dir())
    unknown = [name for name in folders if name not in STAGES]
    if unknown:
        print(f"check-stages: {', '.join(unknown)} in {ROOT} is no stage of scripts/ci/check-stages.py's list; add it where the build runs it")
        return 1
    owner = {}
    for stage in STAGES:
        for path in sorted((ROOT / stage).glob("*.swift")):
            for name in DECLARATION.findall(code(path)):
                owner.setdefault(name, stage)
    later = {name: stage for name, stage in owner.items() if name not in SHARED}
    problems = 0
    for index, stage in enumerate(STAGES):
        for path in sorted((ROOT / stage).glob("*.swift")):
            for number, line in enumerate(code(path).split("\n"), start=1):
                for name in re.findall(r"\b[A-Z]\w*", line):
                    other = later.get(name)
                    if other is not None and STAGES.index(other) > index:
                        print(f"{path.relative_to(ROOT.parents[1])}:{number}: {stage}/ uses {name} of {other}/, a later stage")
                        problems += 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
