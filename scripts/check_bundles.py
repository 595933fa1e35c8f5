#!/usr/bin/env python3
"""Strict offline check of the Firestore data bundles BundlePress wrote.

Usage:
    python3 scripts/check_bundles.py SITE_DIR

Requires google-cloud-firestore (tested with 2.34.1):
    pip install google-cloud-firestore==2.34.1

Reads SITE_DIR/bundles/manifest.json (schema_version 1). For every bundle
listed there it checks that:

* the `.bundle` and `.bundle.gz` files exist, their sizes equal `bytes` and
  `gzip_bytes`, the sha256 of the raw bytes equals `sha256`, and gunzipping
  the `.gz` gives exactly the raw bytes;
* the raw bytes pass a strict framing check (see `framing_problem`);
* `google.cloud.firestore_v1._helpers.deserialize_bundle` parses them without
  an exception, the number of documents it returns equals `documents`, and
  the set of its named query names equals `named_queries`;
* every name in `named_queries` maps back to this bundle and its `url` in the
  manifest's top-level `named_queries` table.

It prints `ok   <id> (<n> docs, <q> queries)` or `FAIL <id>: <reason>` per
bundle, then `N passed, M failed`. Exit status: 0 if everything passed,
1 if anything failed or the manifest lists no bundles (an empty check is a
failure), 2 on a usage error.

Offline: the client gets AnonymousCredentials and an explicit project and
database, so nothing is looked up, and deserialize_bundle never touches the
(lazily built) gRPC channel. As a tripwire, Python's socket connect and
name lookup are replaced by a function that raises before the client is
built.

Quirks of `deserialize_bundle` in google-cloud-firestore 2.34.1, and why
the framing check exists:

* It rejects missing documents (`documentMetadata` with `exists:false` and
  no `document` element: "Unexpected end" / "Expected one of ['document']"),
  any key the proto does not define, more than one key per element,
  a `namedQuery` after the first `documentMetadata`, `{seconds, nanos}`
  timestamps, `limit: {"value": n}`, any byte (newline, space) between or
  after elements, and a `referenceValue` into another database.
* BundlePress writes missing documents for returning clients when a document
  a bundle shipped was deleted (the Firebase SDKs load them). A bundle with
  such markers gets the framing and pairing checks only, and a note; the
  strict reader (`bundlepress verify`) checks the rest.
* It does NOT check `totalDocuments`/`totalBytes`, nor the project or
  database of document names (documents of another project are silently
  re-rooted into the client's), nor a query's `parent` (the Python builder
  itself writes the query name there, which every real client rejects).
* Truncation is not always detected: a file cut right after a complete
  `document` element, optionally followed by some digits of the next length
  prefix, parses as a shorter valid bundle. A cut inside an element raises
  `RuntimeError: generator raised StopIteration`.
* Duplicate document names collapse into one entry (the last one wins when
  read times are equal), so the document count is of distinct names.
"""

import gzip
import hashlib
import json
import os
import re
import socket
import sys

USAGE = "usage: python3 scripts/check_bundles.py SITE_DIR"
ENTRY_KEYS = ("id", "url", "gzip_url", "sha256", "bytes", "gzip_bytes",
              "documents", "named_queries")


def _no_network(*_args, **_kwargs):
    raise OSError("check_bundles.py runs offline; a network call was attempted")


def framing_problem(data, project, database):
    """Return why `data` breaks the bundle rules deserialize_bundle skips, or None.

    Every element is `<len><json>` with a plain decimal length (no leading
    zero, no whitespace) counting UTF-8 bytes, nothing after the last
    element; the first element is `metadata`, its `totalBytes` is a JSON
    number equal to the bytes after it and its `totalDocuments` equals the
    number of `documentMetadata` elements; document names and query parents
    lie in projects/PROJECT/databases/DATABASE/documents; every name in a
    `documentMetadata.queries` list has a `namedQuery` element.
    """
    elements, pos = [], 0
    while pos < len(data):
        brace = data.find(b"{", pos)
        if brace < 0:
            return f"bytes after the last element at byte {pos}: {data[pos:pos + 20]!r}"
        digits = data[pos:brace]
        if not re.fullmatch(rb"[1-9][0-9]*", digits):
            return f"bad length prefix {digits[:20]!r} at byte {pos}"
        end = brace + int(digits)
        if end > len(data):
            return f"element at byte {pos} is truncated ({end - len(data)} bytes missing)"
        try:
            element = json.loads(data[brace:end])
        except ValueError as e:
            return f"element at byte {pos} is not JSON of its declared length: {e}"
        if not isinstance(element, dict) or len(element) != 1:
            return f"element at byte {pos} does not have exactly one key"
        ((key, value),) = element.items()
        elements.append((end - pos, key, value))
        pos = end
    if not elements or elements[0][1] != "metadata":
        return "the first element is not metadata"
    meta = elements[0][2]
    after = sum(size for size, _, _ in elements[1:])
    total = meta.get("totalBytes")
    if type(total) is not int or total != after:
        return f"metadata.totalBytes is {total!r}, bytes after the metadata = {after}"
    doc_metas = [v for _, k, v in elements if k == "documentMetadata"]
    if meta.get("totalDocuments") != len(doc_metas):
        return (f"metadata.totalDocuments is {meta.get('totalDocuments')!r}, "
                f"documentMetadata elements = {len(doc_metas)}")
    root = f"projects/{project}/databases/{database}/documents"
    query_names = set()
    for _, key, value in elements[1:]:
        if key == "namedQuery":
            query_names.add(value.get("name"))
            parent = value.get("bundledQuery", {}).get("parent", "")
            if parent != root and not parent.startswith(root + "/"):
                return f"named query {value.get('name')!r} has parent {parent!r}, not under {root}"
        elif key in ("documentMetadata", "document"):
            if not value.get("name", "").startswith(root + "/"):
                return f"{key} name {value.get('name')!r} is not under {root}"
    for doc_meta in doc_metas:
        unknown = set(doc_meta.get("queries", [])) - query_names
        if unknown:
            return f"{doc_meta['name']} lists unknown queries {sorted(unknown)}"
    # Each exists:true documentMetadata is followed by its document; a missing-document marker
    # (exists:false, what returning clients need for a deleted document) by none, and it is no
    # query's result. The Firebase SDKs load markers; deserialize_bundle does not.
    keys = [(key, value) for _, key, value in elements[1:] if key in ("documentMetadata", "document")]
    for index, (key, value) in enumerate(keys):
        following = keys[index + 1] if index + 1 < len(keys) else (None, None)
        if key == "documentMetadata" and value.get("exists") is True:
            if following[0] != "document" or following[1].get("name") != value.get("name"):
                return f"documentMetadata {value.get('name')!r} is not followed by its document"
        elif key == "documentMetadata":
            if value.get("exists") is not False or following[0] == "document" or value.get("queries"):
                return f"missing document {value.get('name')!r} must have exists:false, no document and no queries"
        elif index == 0 or keys[index - 1][0] != "documentMetadata":
            return f"document {value.get('name')!r} does not follow its documentMetadata"
    return None


def missing_documents(data):
    """The number of missing-document markers in a bundle that passed framing_problem."""
    count, pos = 0, 0
    while pos < len(data):
        brace = data.find(b"{", pos)
        end = brace + int(data[pos:brace])
        element = json.loads(data[brace:end])
        count += element.get("documentMetadata", {}).get("exists") is False
        pos = end
    return count


def check_bundle(site_dir, entry, manifest, client, deserialize_bundle):
    """Check one manifest entry; return (documents, queries) or raise ValueError."""
    missing = [k for k in ENTRY_KEYS if k not in entry]
    if missing:
        raise ValueError(f"manifest entry lacks {missing}")
    files = {}
    for key in ("url", "gzip_url"):
        rel = entry[key]
        if os.path.isabs(rel) or ".." in rel.split("/"):
            raise ValueError(f"{key} {rel!r} is not a path inside SITE_DIR")
        with open(os.path.join(site_dir, rel), "rb") as f:
            files[key] = f.read()
    raw, gz = files["url"], files["gzip_url"]
    if len(raw) != entry["bytes"]:
        raise ValueError(f"{entry['url']} has {len(raw)} bytes, manifest says {entry['bytes']}")
    if len(gz) != entry["gzip_bytes"]:
        raise ValueError(f"{entry['gzip_url']} has {len(gz)} bytes, manifest says {entry['gzip_bytes']}")
    digest = hashlib.sha256(raw).hexdigest()
    if digest != entry["sha256"]:
        raise ValueError(f"sha256 is {digest}, manifest says {entry['sha256']}")
    if gzip.decompress(gz) != raw:
        raise ValueError(f"{entry['gzip_url']} does not gunzip to the bytes of {entry['url']}")

    problem = framing_problem(raw, manifest["project"], manifest["database"])
    if problem:
        raise ValueError(problem)
    listed = entry["named_queries"]
    table = manifest.get("named_queries", {})
    for name in listed:
        target = table.get(name) or {}
        if (target.get("bundle"), target.get("url")) != (entry["id"], entry["url"]):
            raise ValueError(f"manifest named_queries[{name!r}] is {table.get(name)!r}")
    markers = missing_documents(raw)
    if markers:
        # deserialize_bundle cannot parse them; the framing rules above are the JS/Android/iOS
        # pairing rules, and `bundlepress verify` reads the bundle with the strict reader.
        return entry["documents"], len(entry["named_queries"]), markers
    try:
        bundle = deserialize_bundle(raw, client)
    except Exception as e:  # any parser failure is a check failure
        raise ValueError(f"deserialize_bundle failed: {type(e).__name__}: {e}") from e

    n_docs, names = len(bundle.documents), set(bundle.named_queries)
    if n_docs != entry["documents"]:
        raise ValueError(f"parsed {n_docs} documents, manifest says {entry['documents']}")
    if len(set(listed)) != len(listed) or set(listed) != names:
        raise ValueError(f"parsed named queries {sorted(names)}, manifest says {listed}")
    return n_docs, len(names), 0


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print(USAGE, file=sys.stderr)
        return 2
    site_dir = argv[1]
    passed = failed = 0

    try:
        with open(os.path.join(site_dir, "bundles", "manifest.json"), "rb") as f:
            manifest = json.load(f)
        if manifest.get("schema_version") != 1:
            raise ValueError(f"schema_version is {manifest.get('schema_version')!r}, expected 1")
        if not isinstance(manifest.get("project"), str) or not manifest["project"]:
            raise ValueError("project is missing")
        manifest.setdefault("database", "(default)")
        bundles = manifest.get("bundles")
        if not isinstance(bundles, list):
            raise ValueError("bundles is not a list")
    except (OSError, ValueError, AttributeError) as e:
        print(f"FAIL manifest: {e}")
        print("0 passed, 1 failed")
        return 1

    socket.socket.connect = socket.socket.connect_ex = _no_network
    socket.create_connection = socket.getaddrinfo = _no_network
    import google.auth.credentials
    from google.cloud import firestore
    from google.cloud.firestore_v1._helpers import deserialize_bundle

    client = firestore.Client(
        project=manifest["project"],
        database=manifest["database"],
        credentials=google.auth.credentials.AnonymousCredentials(),
    )

    seen = set()
    for entry in bundles:
        bundle_id = entry.get("id", "?") if isinstance(entry, dict) else "?"
        try:
            if not isinstance(entry, dict):
                raise ValueError("manifest entry is not an object")
            if bundle_id in seen:
                raise ValueError("duplicate bundle id")
            seen.add(bundle_id)
            n_docs, n_queries, markers = check_bundle(site_dir, entry, manifest, client, deserialize_bundle)
        except Exception as e:  # report and go on with the next bundle
            print(f"FAIL {bundle_id}: {' '.join(str(e).split())}")
            failed += 1
        else:
            skipped = (f"; {markers} missing-document markers for returning clients: framing and pairing checked, "
                       "deserialize_bundle skipped (it cannot parse them)") if markers else ""
            print(f"ok   {bundle_id} ({n_docs} docs, {n_queries} queries{skipped})")
            passed += 1

    unclaimed = sorted(set(manifest.get("named_queries", {}))
                       - {q for e in bundles if isinstance(e, dict) for q in e.get("named_queries", [])})
    if unclaimed:
        print(f"FAIL manifest: named_queries {unclaimed} belong to no listed bundle")
        failed += 1
    if not bundles:
        print("FAIL manifest: no bundles listed")
        failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
