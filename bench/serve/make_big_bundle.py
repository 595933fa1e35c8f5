#!/usr/bin/env python3
"""Write a synthetic content-hashed bundle of about TARGET gzip bytes into SITE/bundles/.

Bundles are length-prefixed JSON documents; this one holds documents with a random hex field
each (the whole compresses about 6:1), and grows until its .gz reaches the target size. It is
not a loadable bundle (no metadata element): only its size and compressibility matter here. The name carries the first 16
hex digits of the file's SHA-256, as `bundlepress build` writes them, and the .gz gets the
same mtime as the identity file (what nginx's gzip_static docs recommend).

Usage: make_big_bundle.py SITE [TARGET_GZIP_BYTES]   (prints the bundle's URL path)
"""
import gzip
import hashlib
import os
import random
import sys

site = sys.argv[1]
target = int(sys.argv[2]) if len(sys.argv) > 2 else 200_000
rng = random.Random(42)
documents = []
compressed = 0
while compressed < target:
    for _ in range(200):
        n = len(documents)
        value = "%032x" % rng.getrandbits(128)
        document = ('{"document":{"name":"projects/bench/databases/(default)/documents/items/i%06d",'
                    '"fields":{"n":{"integerValue":"%d"},"token":{"stringValue":"%s"}}}}' % (n, n, value))
        documents.append("%d%s" % (len(document), document))
    raw = "".join(documents).encode()
    compressed = len(gzip.compress(raw, compresslevel=9, mtime=0))
digest = hashlib.sha256(raw).hexdigest()
name = "big.%s.bundle" % digest[:16]
path = os.path.join(site, "bundles", name)
with open(path, "wb") as f:
    f.write(raw)
with open(path + ".gz", "wb") as f:
    f.write(gzip.compress(raw, compresslevel=9, mtime=0))
stat = os.stat(path)
os.utime(path + ".gz", (stat.st_atime, stat.st_mtime))
print("/bundles/" + name)
