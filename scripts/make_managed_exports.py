#!/usr/bin/env python3
"""Generate the managed-export and emulator-export fixtures of ExportReaderTests.

Usage:
    python3 scripts/make_managed_exports.py [OUTDIR]
    python3 scripts/make_managed_exports.py --check [OUTDIR]

OUTDIR defaults to Tests/ExportReaderTests/Fixtures/managed-export. The generated files ARE
COMMITTED (a few hundred KB); CI runs `--check`, which regenerates into a temporary folder and
fails when anything differs. Output is deterministic (no clock, no randomness).

Requires `appengine-python-standard` (PyPI): its `entity_bytes_pb2.EntityProto` is Google's
own encoder of App Engine datastore v3 entities, the record format of `gcloud firestore export`
and of the Emulator Suite's export, so BundlePress's decoder is tested against an encoder it
shares no code with. The LevelDB log framing (google/leveldb db/log_format.h: 32 KiB blocks,
7-byte headers with a masked CRC-32C, FULL/FIRST/MIDDLE/LAST fragments, zero filler) is written
by `LogWriter` below.

Writes:
    managed/            a managed export: <name>.overall_export_metadata and
                        all_namespaces/all_kinds/{all_namespaces_all_kinds.export_metadata,
                        output-0, output-1, output-2}; every Firestore type, numeric IDs,
                        subcollections, a 70 KB record spanning three blocks, a block ending
                        in zero filler, a trailing zero-padded block
    managed.expected.ndjson     what `bundlepress convert managed --project demo` must equal
    emulator/           an Emulator Suite export of a named database (database_id "reviews"):
                        firebase-export-metadata.json + firestore_export/...
    emulator.expected.ndjson    the same for `convert emulator --project demo --database reviews`
    broken/<case>/      managed exports with one defect each; broken/errors.json says which
                        file, byte offset and message each must be reported with
"""
import base64, json, math, os, re, shutil, struct, subprocess, sys, tempfile

from google.appengine.datastore import entity_bytes_pb2 as pb

BLOCK = 32768
FULL, FIRST, MIDDLE, LAST = 1, 2, 3, 4
EXPORT_START_MICROS = 1_767_323_045_123_456  # 2026-01-02T03:04:05.123456Z
EXPORT_END_MICROS = EXPORT_START_MICROS + 4_321_000


# ---- LevelDB log framing -------------------------------------------------------------------

def _crc_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table

CRC_TABLE = _crc_table()

def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = CRC_TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF

def masked_crc(data):
    c = crc32c(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


class LogWriter:
    """Appends records to a LevelDB log; `offsets` keeps where each record starts."""

    def __init__(self):
        self.out = bytearray()
        self.offsets = []

    def left_in_block(self):
        return BLOCK - len(self.out) % BLOCK

    def add(self, payload):
        first, rest = True, payload
        while True:
            left = self.left_in_block()
            if left < 7:
                self.out += b"\0" * left
                left = BLOCK
            if first:
                self.offsets.append(len(self.out))
            fragment, rest = rest[: left - 7], rest[left - 7:]
            kind = (FULL if not rest else FIRST) if first else (LAST if not rest else MIDDLE)
            header = struct.pack("<IHB", masked_crc(bytes([kind]) + fragment), len(fragment), kind)
            self.out += header + fragment
            first = False
            if not rest:
                return

    def pad_block(self):
        """A trailing zero-padded block, as some writers leave."""
        self.out += b"\0" * self.left_in_block()


# ---- Documents: Python values with their Firestore types ------------------------------------

class Ref:
    def __init__(self, path): self.path = path
class Geo:
    def __init__(self, lat, lng): self.lat, self.lng = lat, lng
class Micros:
    def __init__(self, micros): self.micros = micros
class Blob:
    def __init__(self, data, meaning=pb.Property.BYTESTRING): self.data, self.meaning = data, meaning
class Text:
    def __init__(self, text): self.text = text  # a long string stored with meaning TEXT (15)
class Int:
    def __init__(self, n): self.n = n


def documents():
    """(path, fields) of the managed fixture; paths use ("id", N) for numeric IDs."""
    nested = {"level": Int(1), "inner": {"level": Int(2), "deepest": {"level": Int(3), "tags": ["a", None, {"in": "array"}]}}}
    return [
        (("cities", "SF"), {
            "name": "San Francisco", "population": Int(808437), "density": 7.0, "area": 46.9,
            "capital": False, "visited": True, "note": None,
            "founded": Micros(-6_106_060_800_000_000),  # 1776-07-04T00:00:00Z
            "updated": Micros(1_714_566_896_123_456),   # 2024-05-01T12:34:56.123456Z
            "justBeforeEpoch": Micros(-1),
            "loc": Geo(37.7749, -122.4194),
            "mayor": Ref((("users", "lurie"),)),
            "numbered": Ref((("cities", ("id", 42)),)),
            "logo": Blob(b"\x89PNG\r\n\x1a\n\x00\xff"), "blob": Blob(b"\x00\x01\x02", pb.Property.BLOB),
            "tags": ["west", "coast"], "empty": [], "meta": {}, "nested": nested,
            "mixed": [Int(1), 2.5, "three", None, True, Micros(0), Geo(0.0, -0.0), Ref((("users", "lurie"),)), Blob(b"\x07"), {"k": [Int(4)]}, {}],
        }),
        (("cities", "SF", "landmarks", "gg"), {"name": "Golden Gate", "height": 227.4}),
        (("cities", ("id", 42)), {"name": "Numbered", "id": Int(42)}),
        (("numbers", "edge"), {
            "big": Int(9_007_199_254_740_993), "min": Int(-2**63), "max": Int(2**63 - 1), "zero": Int(0),
            "nan": float("nan"), "inf": float("inf"), "ninf": float("-inf"), "negzero": -0.0, "tiny": 5e-324,
            "huge": 1.7976931348623157e308,
        }),
        (("strings", "unicode"), {
            "empty": "", "accents": "Zürich Crème", "cjk": "東京", "emoji": "🚀👩‍🚀", "nul": "a\0b",
            "quote": "say \"hi\"\\", "long": Text("x" * 2000), "key with spaces": "ok", "dotted.key": "ok",
            "ünïcode-kéy": "ok",
        }),
        (("users", "lurie"), {"name": "Daniel Lurie"}),
        (("users", "lurie", "posts", ("id", 7)), {"title": "Numbered post in a subcollection"}),
        (("big", "spanning"), {"payload": Text("y" * 70_000), "after": "the long field"}),
    ]


def filler_document(left_wanted, writer):
    """A document whose record leaves exactly `left_wanted` (< 7) bytes in the block."""
    for size in range(1, 40_000):
        payload = entity(("filler", "pad"), {"pad": "p" * size}, "e~demo-source", "").SerializeToString()
        end = len(writer.out) + 7 + len(payload)
        if len(payload) + 7 <= writer.left_in_block() and BLOCK - end % BLOCK == left_wanted:
            return (("filler", "pad"), {"pad": "p" * size})
    raise SystemExit("no filler size fits")


# ---- EntityProto encoding (Google's encoder) ------------------------------------------------

def set_path(elements_adder, path):
    for i in range(0, len(path), 2):
        element = elements_adder()
        element.type = path[i]
        doc_id = path[i + 1]
        if isinstance(doc_id, tuple):
            element.id = doc_id[1]
        else:
            element.name = doc_id


def set_key(key, path, app, database):
    key.app = app
    if database:
        key.database_id = database
    set_path(key.path.element.add, path)


def ref_path(ref):
    return tuple(part for pair in ref.path for part in pair)


def fill_value(prop, value, app, database):
    """Sets prop.meaning and prop.value for one (non-array) value."""
    v = prop.value
    if value is None:
        pass
    elif isinstance(value, bool):
        v.booleanValue = value
    elif isinstance(value, Int):
        v.int64Value = value.n
    elif isinstance(value, float):
        v.doubleValue = value
    elif isinstance(value, str):
        v.stringValue = value.encode("utf-8")
    elif isinstance(value, Text):
        prop.meaning = pb.Property.TEXT
        v.stringValue = value.text.encode("utf-8")
    elif isinstance(value, Blob):
        prop.meaning = value.meaning
        v.stringValue = value.data
    elif isinstance(value, Micros):
        prop.meaning = pb.Property.GD_WHEN
        v.int64Value = value.micros
    elif isinstance(value, Geo):
        prop.meaning = pb.Property.GEORSS_POINT
        v.pointvalue.x, v.pointvalue.y = value.lat, value.lng
    elif isinstance(value, Ref):
        r = v.referencevalue
        r.app = app
        if database:
            r.database_id = database
        set_path(r.pathelement.add, ref_path(value))
    elif isinstance(value, dict):
        prop.meaning = pb.Property.ENTITY_PROTO
        inner = pb.EntityProto()
        inner.key.app = ""
        inner.key.path.SetInParent()
        inner.entity_group.SetInParent()
        add_properties(inner, value, app, database)
        v.stringValue = inner.SerializeToString()
    else:
        raise TypeError(value)


def add_properties(ent, fields, app, database):
    for name, value in fields.items():
        unindexed = isinstance(value, (Text, dict)) or (isinstance(value, Blob) and value.meaning == pb.Property.BLOB)
        if isinstance(value, list):
            if not value:
                prop = ent.property.add()  # Firestore writes empty arrays as indexed properties
                prop.name, prop.multiple, prop.meaning = name.encode(), False, pb.Property.EMPTY_LIST
                prop.value.SetInParent()
            for element in value:
                prop = ent.raw_property.add()
                prop.name, prop.multiple = name.encode(), True
                fill_value(prop, element, app, database)
                prop.value.SetInParent()
            continue
        prop = (ent.raw_property if unindexed or name != "name" else ent.property).add()
        prop.name, prop.multiple = name.encode(), False
        fill_value(prop, value, app, database)
        prop.value.SetInParent()


def entity(path, fields, app, database):
    ent = pb.EntityProto()
    set_key(ent.key, path, app, database)
    set_path(ent.entity_group.element.add, path[:2])
    add_properties(ent, fields, app, database)
    return ent


# ---- Expected REST JSON (written independently of BundlePress) ------------------------------

def rest_name(project, database, path):
    parts = []
    for i in range(0, len(path), 2):
        doc_id = path[i + 1]
        parts += [path[i], f"__id{doc_id[1]}__" if isinstance(doc_id, tuple) else doc_id]
    return f"projects/{project}/databases/{database}/documents/" + "/".join(parts)


def rfc3339(micros):
    seconds, fraction = divmod(micros, 1_000_000)
    import datetime
    stamp = datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=seconds)
    return stamp.strftime("%Y-%m-%dT%H:%M:%S").rjust(19, "0") + f".{fraction:06d}Z"


def rest_value(value, project, database):
    if value is None: return {"nullValue": None}
    if isinstance(value, bool): return {"booleanValue": value}
    if isinstance(value, Int): return {"integerValue": str(value.n)}
    if isinstance(value, float):
        if math.isnan(value): return {"doubleValue": "NaN"}
        if math.isinf(value): return {"doubleValue": "Infinity" if value > 0 else "-Infinity"}
        return {"doubleValue": value}
    if isinstance(value, str): return {"stringValue": value}
    if isinstance(value, Text): return {"stringValue": value.text}
    if isinstance(value, Blob): return {"bytesValue": base64.b64encode(value.data).decode()}
    if isinstance(value, Micros): return {"timestampValue": rfc3339(value.micros)}
    if isinstance(value, Geo): return {"geoPointValue": {"latitude": value.lat, "longitude": value.lng}}
    if isinstance(value, Ref): return {"referenceValue": rest_name(project, database, ref_path(value))}
    if isinstance(value, list):
        return {"arrayValue": {"values": [rest_value(v, project, database) for v in value]} if value else {}}
    if isinstance(value, dict):
        return {"mapValue": {"fields": rest_fields(value, project, database)} if value else {}}
    raise TypeError(value)


def rest_fields(fields, project, database):
    return {k: rest_value(v, project, database) for k, v in sorted(fields.items(), key=lambda kv: kv[0].encode())}


def expected_ndjson(docs, project, database):
    lines = []
    for path, fields in docs:
        lines.append((rest_name(project, database, path).encode(),
                      json.dumps({"name": rest_name(project, database, path), "fields": rest_fields(fields, project, database)},
                                 ensure_ascii=False, separators=(",", ":"))))
    # Firestore's name order: segment by segment; numeric IDs (__id<N>__) first, by number,
    # then names by UTF-8 bytes.
    def segment_key(segment):
        match = re.fullmatch(rb"__id(-?[0-9]+)__", segment)
        return (0, int(match.group(1)), b"") if match else (1, 0, segment)
    lines.sort(key=lambda line: [segment_key(s) for s in line[0].split(b"/")])
    return "".join(text + "\n" for _, text in lines)


# ---- Metadata files --------------------------------------------------------------------------

def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)

def field(number, payload):
    return varint(number << 3 | 2) + varint(len(payload)) + payload

def varint_field(number, n):
    return varint(number << 3) + varint(n)

def kind_metadata(name, kind, outputs):
    export = field(1, name.encode()) + varint_field(2, EXPORT_START_MICROS) + varint_field(3, EXPORT_END_MICROS)
    files = field(1, kind.encode()) + b"".join(field(2, o.encode()) for o in outputs)
    return field(1, export) + field(2, files)

def overall_metadata(count, size):
    log = LogWriter()
    log.add(b"3")
    entry = field(1, b"\x08\x02\x18\x03") + field(2, b"all_namespaces/all_kinds/all_namespaces_all_kinds.export_metadata")
    log.add(field(1, entry + varint_field(3, count) + varint_field(4, size)))
    return bytes(log.out)


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def write_export(root, files, kind_name, count):
    """files: list of bytes, one per output-N."""
    kinds = os.path.join(root, "all_namespaces", "all_kinds")
    outputs = [f"output-{i}" for i in range(len(files))]
    for name, data in zip(outputs, files):
        write(os.path.join(kinds, name), data)
    write(os.path.join(kinds, "all_namespaces_all_kinds.export_metadata"), kind_metadata(kind_name, "", outputs))
    return overall_metadata(count, sum(map(len, files)))


# ---- The fixtures ------------------------------------------------------------------------------

def managed(out):
    app, database = "e~demo-source", ""
    docs = documents()
    logs = [LogWriter(), LogWriter(), LogWriter()]
    for i, (path, fields) in enumerate(docs[:4]):
        logs[0].add(entity(path, fields, app, database).SerializeToString())
    # output-1: the record spanning three blocks, then one leaving < 7 bytes of zero filler.
    logs[1].add(entity(*docs[7], app, database).SerializeToString())
    filler = filler_document(3, logs[1])
    docs.append(filler)
    logs[1].add(entity(*filler, app, database).SerializeToString())
    for path, fields in docs[4:7]:
        logs[1].add(entity(path, fields, app, database).SerializeToString())
    logs[1].pad_block()
    # output-2: empty (exports write empty shards).
    name = "2026-01-02T03_04_05_12345"
    root = os.path.join(out, "managed")
    overall = write_export(root, [bytes(l.out) for l in logs], name, len(docs))
    write(os.path.join(root, name + ".overall_export_metadata"), overall)
    write(os.path.join(out, "managed.expected.ndjson"), expected_ndjson(docs, "demo", "(default)"))


def emulator(out):
    app, database = "dev~demo-emulator", "reviews"
    docs = [d for d in documents() if d[0][0] != "big"]
    log = LogWriter()
    for path, fields in docs:
        log.add(entity(path, fields, app, database).SerializeToString())
    root = os.path.join(out, "emulator")
    overall = write_export(os.path.join(root, "firestore_export"), [bytes(log.out)], "firestore_export", len(docs))
    write(os.path.join(root, "firestore_export", "firestore_export.overall_export_metadata"), overall)
    write(os.path.join(root, "firebase-export-metadata.json"), json.dumps({
        "version": "13.0.0",
        "firestore": {"version": "1.19.0", "path": "firestore_export",
                      "metadata_file": "firestore_export/firestore_export.overall_export_metadata"},
    }, indent=2) + "\n")
    write(os.path.join(out, "emulator.expected.ndjson"), expected_ndjson(docs, "demo", "reviews"))


def broken(out):
    """Each case: a managed export whose output-0 has one defect, and the error it must give."""
    app = "e~demo-source"
    good = [entity(("cities", "LA"), {"name": "Los Angeles"}, app, "").SerializeToString(),
            entity(("cities", "NY"), {"name": "New York"}, app, "").SerializeToString()]
    errors = {}

    def case(name, data, offset, message, outputs=None):
        root = os.path.join(out, "broken", name)
        write_export(root, [data] if outputs is None else outputs, name, 2)
        errors[name] = {"file": "all_namespaces/all_kinds/output-0", "offset": offset, "message": message}

    log = LogWriter()
    for record in good: log.add(record)
    data = bytearray(log.out)
    data[log.offsets[1] + 7 + 3] ^= 0x01
    case("bad-checksum", bytes(data), log.offsets[1], "checksum mismatch")

    case("truncated-record", bytes(log.out[: log.offsets[1] + 7 + 5]), log.offsets[1], "the file ends after 5")
    case("truncated-header", bytes(log.out[: log.offsets[1] + 4]), log.offsets[1], "the file ends inside a record header")

    spanning = LogWriter()
    spanning.add(entity(("big", "one"), {"payload": Text("z" * 40_000)}, app, "").SerializeToString())
    case("truncated-fragment", bytes(spanning.out[:BLOCK]), BLOCK, "expected its LAST fragment")

    bad_type = bytearray(log.out)
    payload = bytes(bad_type[log.offsets[1] + 7: log.offsets[1] + 7 + len(good[1])])
    bad_type[log.offsets[1]: log.offsets[1] + 7] = struct.pack("<IHB", masked_crc(bytes([9]) + payload), len(payload), 9)
    case("unknown-type", bytes(bad_type), log.offsets[1], "unknown record type 9")

    orphan = LogWriter()
    orphan.add(good[0])
    middle = bytearray(orphan.out)
    middle[6] = MIDDLE
    middle[0:4] = struct.pack("<I", masked_crc(bytes([MIDDLE]) + good[0]))
    case("orphan-fragment", bytes(middle), 0, "fragment outside a record")

    invalid = LogWriter()
    invalid.add(good[0])
    ent = pb.EntityProto()
    set_key(ent.key, ("cities", "bad"), app, "")
    ent.entity_group.SetInParent()
    prop = ent.raw_property.add()
    prop.name, prop.multiple = b"name", False
    prop.value.stringValue = b"caf\xe9"
    record = ent.SerializeToString()
    invalid.add(record)
    value_at = invalid.offsets[1] + 7 + record.index(b"\x1a\x04caf\xe9")
    case("non-utf8-string", bytes(invalid.out), value_at, "not valid UTF-8")

    garbage = LogWriter()
    garbage.add(good[0])
    garbage.add(b"\x6a\x7f\x00")  # key: a length of 127 bytes with 1 byte left
    case("bad-protobuf", bytes(garbage.out), garbage.offsets[1] + 7 + 1, "runs past the end")

    root = os.path.join(out, "broken", "missing-output")
    write_export(root, [bytes(log.out), bytes(log.out)], "missing-output", 4)
    os.remove(os.path.join(root, "all_namespaces", "all_kinds", "output-1"))
    errors["missing-output"] = {"file": "all_namespaces/all_kinds/output-1", "offset": None, "message": "missing"}

    write(os.path.join(out, "broken", "errors.json"), json.dumps(errors, indent=2, sort_keys=True) + "\n")


def generate(out):
    if os.path.exists(out):
        shutil.rmtree(out)
    managed(out)
    emulator(out)
    broken(out)


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    here = os.path.dirname(os.path.abspath(__file__))
    out = args[0] if args else os.path.join(here, "..", "Tests", "ExportReaderTests", "Fixtures", "managed-export")
    if not check:
        generate(out)
        return 0
    with tempfile.TemporaryDirectory() as scratch:
        fresh = os.path.join(scratch, "fixtures")
        generate(fresh)
        result = subprocess.run(["diff", "-r", fresh, out])
        if result.returncode != 0:
            print("the committed fixtures differ from the generator's output; run scripts/make_managed_exports.py", file=sys.stderr)
        return result.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
