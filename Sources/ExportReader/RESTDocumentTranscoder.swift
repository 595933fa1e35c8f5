import FirestoreModel
import JSONCore

/// Reads a REST export line holding one `Document` straight into what a build keeps of it: its
/// fields encoded as a bundle carries them (``FirestoreModel/MapValue/encodeFields(into:)``)
/// and, decoded, only the fields the build's queries read. No tree of JSON nodes or of values is
/// built for the rest.
///
/// It takes the common shape only: a document object (no `runQuery`, `batchGet` or list page
/// record), values of the usual forms, field names of printable ASCII, references into the
/// document's own database or the target. For anything else, valid or not, it gives nil and the
/// caller decodes the line as ``RESTRecordDecoder`` does, which also says what is wrong with it:
/// a document it reads is exactly the one decoding, re-rooting and encoding would give.
struct RESTDocumentTranscoder: Sendable {
    /// What the transcoder made of a line.
    struct Transcoded {
        /// The document, re-rooted, with only the fields kept.
        var document: Document
        /// The database its name named.
        var source: DatabaseID
        /// All its fields, encoded.
        var encodedFields: [UInt8]
    }

    let target: DatabaseID
    /// The fields kept decoded.
    let kept: [FieldPath]

    /// Reads `line`.
    func transcode(_ line: UnsafeBufferPointer<UInt8>) -> Transcoded? {
        // The encoded fields take about the line's bytes.
        var writer = JSONWriter(reservingCapacity: line.count)
        var scan = RESTDocumentScan(json: line, target: target)
        return scan.document(keeping: kept, writer: &writer)
    }
}

/// One pass over a line's bytes.
struct RESTDocumentScan {
    let json: UnsafeBufferPointer<UInt8>
    let target: DatabaseID
    var index = 0
    /// The database the document's name named: its references move to the target with it.
    var source: DatabaseID
    /// The document's path, once its name is read.
    var path: ResourcePath?
    /// Nesting below the document, kept well inside ``JSONCore/JSONParser/maximumDepth``.
    var depth = 0
    static let maximumDepth = 64
    /// The members of the `fields` objects being read, innermost last.
    private var members: [Member] = []
    /// Where members are put in order.
    private var scratch: [UInt8] = []

    /// Where one field's `"key":value` is in the writer: from `start`, its key up to `keyEnd`,
    /// up to `end`.
    struct Member {
        var start: Int
        var keyEnd: Int
        var end: Int
    }

    init(json: UnsafeBufferPointer<UInt8>, target: DatabaseID) {
        self.json = json
        self.target = target
        source = target
    }

    /// Resolves the document's `name` into ``path`` and ``source``; false when it is no
    /// document name.
    private mutating func resolve(_ name: String) -> Bool {
        if path != nil { return true }
        guard let resource = try? ResourceName(documentName: name, relativeTo: target) else { return false }
        (path, source) = (resource.path, resource.database)
        return true
    }

    /// The line's document with the fields `kept` decoded and every field encoded into
    /// `writer`; nil when the line is not in the common shape.
    mutating func document(keeping kept: [FieldPath], writer: inout JSONWriter) -> RESTDocumentTranscoder.Transcoded? {
        // A record that does not start its line has its location found by the decoder.
        guard json.first == UInt8(ascii: "{") else { return nil }
        index = 1
        var name: String?
        var fields: Range<Int>?
        var transcoded = false
        let keptKeys = kept.map { Array($0.segments[0].utf8) }
        var keptFields: [MapValue.Field] = []
        var createTime: Timestamp?
        var updateTime: Timestamp?
        var first = true
        while true {
            skipSpace()
            if consume(UInt8(ascii: "}")) { break }
            if !first { guard consume(UInt8(ascii: ",")) else { return nil }; skipSpace() }
            first = false
            guard let key = plainKey() else { return nil }
            skipSpace()
            guard consume(UInt8(ascii: ":")) else { return nil }
            skipSpace()
            switch key {
            case .name where name == nil:
                guard let text = decodedString() else { return nil }
                name = text
            case .fields where fields == nil:
                // Usually after the name, whose database its references follow: read it now.
                let start = index
                if let name, resolve(name) {
                    guard self.fields(into: &writer, keeping: keptKeys, found: &keptFields) else { return nil }
                    transcoded = true
                } else {
                    guard skipValue() else { return nil }
                }
                fields = start..<index
            case .createTime where createTime == nil:
                guard let time = timestamp() else { return nil }
                createTime = time
            case .updateTime where updateTime == nil:
                guard let time = timestamp() else { return nil }
                updateTime = time
            default:
                return nil
            }
        }
        skipSpace()
        guard index == json.count, let name, resolve(name), let path else { return nil }
        if let fields, !transcoded {
            index = fields.lowerBound
            guard self.fields(into: &writer, keeping: keptKeys, found: &keptFields) else { return nil }
        } else if fields == nil {
            writer.raw("{}")
        }
        // The fields found are the kept ones at the top level, each once (a key twice fails the
        // line): narrowed further only for kept paths below the top.
        let found = MapValue(distinctKeys: keptFields)
        let document = Document(
            path: path, fields: kept.allSatisfy { $0.segments.count == 1 } ? found : found.keepingOnly(kept), createTime: createTime, updateTime: updateTime)
        return RESTDocumentTranscoder.Transcoded(document: document, source: source, encodedFields: writer.bytes)
    }

    /// A `fields` object, encoded with its keys in UTF-8 order; at the top level (`keeping`
    /// non-empty: the UTF-8 names of the fields kept) the values of those fields are decoded
    /// into `found`.
    mutating func fields(into writer: inout JSONWriter, keeping: [[UInt8]] = [], found: inout [MapValue.Field]) -> Bool {
        guard consume(UInt8(ascii: "{")) else { return false }
        depth += 1
        defer { depth -= 1 }
        guard depth <= RESTDocumentScan.maximumDepth else { return false }
        writer.byte(UInt8(ascii: "{"))
        let start = writer.count
        let first = members.count
        defer { members.removeSubrange(first...) }
        var inOrder = true
        skipSpace()
        if !consume(UInt8(ascii: "}")) {
            while true {
                skipSpace()
                let keyStart = index
                guard let keyEnd = plainStringEnd() else { return false }
                if members.count > first {
                    members[members.count - 1].end = writer.count
                    writer.byte(UInt8(ascii: ","))
                }
                let member = Member(start: writer.count, keyEnd: writer.count + keyEnd - keyStart, end: 0)
                writer.raw(bytes: UnsafeBufferPointer(rebasing: json[keyStart..<keyEnd]))
                writer.byte(UInt8(ascii: ":"))
                if members.count > first, !writer.bytes.withUnsafeBufferPointer({ Self.less($0, members[members.count - 1], member) }) { inOrder = false }
                members.append(member)
                skipSpace()
                guard consume(UInt8(ascii: ":")) else { return false }
                skipSpace()
                let valueStart = index
                guard value(into: &writer) else { return false }
                let name = json[(keyStart + 1)..<(keyEnd - 1)]
                if keeping.contains(where: { $0.elementsEqual(name) }) {
                    guard let decoded = decode(valueStart..<index) else { return false }
                    found.append(MapValue.Field(key: String(decoding: UnsafeBufferPointer(rebasing: name), as: UTF8.self), value: decoded))
                }
                skipSpace()
                if consume(UInt8(ascii: "}")) { break }
                guard consume(UInt8(ascii: ",")) else { return false }
            }
            members[members.count - 1].end = writer.count
        }
        if !inOrder { guard sort(&writer, from: start, members: first) else { return false } }
        writer.byte(UInt8(ascii: "}"))
        return true
    }

    /// Whether the key of `a` orders before the key of `b` in `bytes` (plain ASCII, so byte order
    /// is UTF-8 order).
    private static func less(_ bytes: UnsafeBufferPointer<UInt8>, _ a: Member, _ b: Member) -> Bool {
        UTF8Order.compare(bytes: UnsafeBufferPointer(rebasing: bytes[(a.start + 1)..<(a.keyEnd - 1)]), UnsafeBufferPointer(rebasing: bytes[(b.start + 1)..<(b.keyEnd - 1)])) == .less
    }

    /// Puts the members written from `start` (``members`` from `first` on) in key order; false
    /// when two keys are the same (the parser's error to report).
    private mutating func sort(_ writer: inout JSONWriter, from start: Int, members first: Int) -> Bool {
        // The members are read where the writer holds them, and written back once sorted (a
        // copy of the writer's bytes, held while it is truncated, would copy them all again).
        let sorted = writer.bytes.withUnsafeBufferPointer { bytes in
            members[first...].sort { Self.less(bytes, $0, $1) }
            for index in (first + 1)..<members.count where !Self.less(bytes, members[index - 1], members[index]) {
                return false
            }
            scratch.removeAll(keepingCapacity: true)
            for index in first..<members.count {
                if index > first { scratch.append(UInt8(ascii: ",")) }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[members[index].start..<members[index].end]))
            }
            return true
        }
        guard sorted else { return false }
        writer.truncate(to: start)
        writer.raw(bytes: scratch)
        return true
    }
}
