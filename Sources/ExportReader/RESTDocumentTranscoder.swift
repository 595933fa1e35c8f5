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
        var scan = Scan(json: line, target: target)
        return scan.document(keeping: kept, writer: &writer)
    }
}

/// One pass over a line's bytes.
private struct Scan {
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
    private mutating func fields(into writer: inout JSONWriter, keeping: [[UInt8]] = [], found: inout [MapValue.Field]) -> Bool {
        guard consume(UInt8(ascii: "{")) else { return false }
        depth += 1
        defer { depth -= 1 }
        guard depth <= Scan.maximumDepth else { return false }
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

    /// One value object (`{"stringValue": …}`), encoded: a string, map or array as it is read,
    /// any other value as ``FirestoreModel/Value/encode(into:)`` writes it.
    private mutating func value(into writer: inout JSONWriter) -> Bool {
        guard consume(UInt8(ascii: "{")) else { return false }
        skipSpace()
        guard let kind = plainKey() else { return false }
        skipSpace()
        guard consume(UInt8(ascii: ":")) else { return false }
        skipSpace()
        switch kind {
        case .stringValue:
            writer.raw("{\"stringValue\":")
            guard let end = writer.copyString(json, at: index) else { return false }
            index = end
            writer.byte(UInt8(ascii: "}"))
        case .mapValue:
            guard let hasFields = openWrapper(.fields) else { return false }
            let mark = writer.count
            writer.raw("{\"mapValue\":{\"fields\":")
            let fieldsStart = writer.count
            var none: [MapValue.Field] = []
            if hasFields { guard fields(into: &writer, found: &none) else { return false } }
            if !hasFields || writer.count == fieldsStart + 2 {
                // An empty map is written `{}`, as the encoder writes it.
                writer.truncate(to: mark)
                writer.raw("{\"mapValue\":{}}")
            } else {
                writer.raw("}}")
            }
            guard closeWrapper(hasFields) else { return false }
        case .arrayValue:
            guard let hasValues = openWrapper(.values), !hasValues || consume(UInt8(ascii: "[")) else { return false }
            depth += 1
            defer { depth -= 1 }
            guard depth <= Scan.maximumDepth else { return false }
            skipSpace()
            if !hasValues || consume(UInt8(ascii: "]")) {
                writer.raw("{\"arrayValue\":{}}")
            } else {
                writer.raw("{\"arrayValue\":{\"values\":[")
                while true {
                    skipSpace()
                    guard value(into: &writer) else { return false }
                    skipSpace()
                    if consume(UInt8(ascii: "]")) { break }
                    guard consume(UInt8(ascii: ",")) else { return false }
                    writer.byte(UInt8(ascii: ","))
                }
                writer.raw("]}}")
            }
            guard closeWrapper(hasValues) else { return false }
        case .bytesValue where copyCanonical(.bytesValue, into: &writer, if: Base64.isCanonical),
             .timestampValue where copyCanonical(.timestampValue, into: &writer, if: { Timestamp.hasCanonicalShape($0) && (try? Timestamp(rfc3339: $0)) != nil }):
            break
        default:
            guard let scalar = scalar(kind) else { return false }
            scalar.encode(into: &writer)
        }
        skipSpace()
        return consume(UInt8(ascii: "}"))
    }

    /// A value of type `kind` copied as it is (`{"<kind>":"<text>"}`) when its string's text is
    /// what the encoder writes for it (`isCanonical`: base64 as ``FirestoreModel/Base64/isCanonical(_:)``
    /// says, a valid timestamp of ``FirestoreModel/Timestamp/hasCanonicalShape(_:)``), which
    /// decoding and encoding would give back; false (not moved) for any other form, which is decoded.
    private mutating func copyCanonical(_ kind: Key, into writer: inout JSONWriter, if isCanonical: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        let start = index
        guard let end = plainStringEnd() else { return false }
        guard isCanonical(UnsafeBufferPointer(rebasing: json[(start + 1)..<(end - 1)])) else {
            index = start
            return false
        }
        writer.raw("{\"")
        writer.raw(kind.text)
        writer.raw("\":")
        writer.raw(bytes: UnsafeBufferPointer(rebasing: json[start..<end]))
        writer.byte(UInt8(ascii: "}"))
        return true
    }

    /// The value of a value object whose type key is `kind`, other than a string, map or array;
    /// nil for a form the decoder is to read (or report).
    private mutating func scalar(_ kind: Key) -> Value? {
        switch kind {
        case .integerValue:
            return integer().map(Value.integer)
        case .doubleValue:
            return double().map(Value.double)
        case .booleanValue:
            if consume(literal: "true") { return .boolean(true) }
            return consume(literal: "false") ? .boolean(false) : nil
        case .nullValue:
            return consume(literal: "null") || consume(literal: "\"NULL_VALUE\"") ? .null : nil
        case .timestampValue:
            return timestamp().map(Value.timestamp)
        case .bytesValue:
            return decodedString().flatMap(Base64.decode).map(Value.bytes)
        case .referenceValue:
            guard let text = decodedString(), let name = try? ResourceName(documentName: text, relativeTo: source) else { return nil }
            let moved = DocumentReRooter(target: target).reRoot(name, from: source)
            // A reference outside the target is the caller's to report, from the whole document.
            return moved.database == target ? .reference(moved) : nil
        case .geoPointValue:
            return geoPoint().map(Value.geoPoint)
        default:
            // Keys that are no value type: the decoder's to report.
            return nil
        }
    }

    /// The object a map's fields or an array's values are in: `{}` (false), or `{"<key>":`
    /// (true, at the value); nil for anything else.
    private mutating func openWrapper(_ key: Key) -> Bool? {
        guard consume(UInt8(ascii: "{")) else { return nil }
        skipSpace()
        if consume(UInt8(ascii: "}")) { return false }
        guard plainKey() == key else { return nil }
        skipSpace()
        guard consume(UInt8(ascii: ":")) else { return nil }
        skipSpace()
        return true
    }

    /// The end of a wrapper ``openWrapper(_:)`` opened, `{}` already read when it was empty.
    private mutating func closeWrapper(_ opened: Bool) -> Bool {
        guard opened else { return true }
        skipSpace()
        return consume(UInt8(ascii: "}"))
    }

    /// The value at `range` decoded as the decoder decodes it, references moved with the
    /// document.
    private func decode(_ range: Range<Int>) -> Value? {
        guard let node = try? JSONParser.parse(UnsafeBufferPointer(rebasing: json[range])),
              let value = try? Value(protoJSON: node, relativeTo: source)
        else { return nil }
        return DocumentReRooter(target: target).reRoot(value, from: source)
    }

    /// An int64 as a JSON integer or a decimal string, in its shortest form (no sign on zero,
    /// no leading zeros, at most 18 digits: every such number fits).
    private mutating func integer() -> Int64? {
        let quoted = consume(UInt8(ascii: "\""))
        let start = index
        if index < json.count, json[index] == UInt8(ascii: "-") { index += 1 }
        let digitsStart = index
        while index < json.count, json[index] >= UInt8(ascii: "0"), json[index] <= UInt8(ascii: "9") { index += 1 }
        let digits = index - digitsStart
        guard digits >= 1, digits <= 18, json[digitsStart] != UInt8(ascii: "0") || (digits == 1 && digitsStart == start) else { return nil }
        let end = index
        if quoted { guard consume(UInt8(ascii: "\"")) else { return nil } } else { guard !continuesNumber() else { return nil } }
        return Int64(String(decoding: UnsafeBufferPointer(rebasing: json[start..<end]), as: UTF8.self))
    }

    /// A double as a JSON number, or as the string "NaN", "Infinity" or "-Infinity".
    private mutating func double() -> Double? {
        if consume(literal: "\"NaN\"") { return .nan }
        if consume(literal: "\"Infinity\"") { return .infinity }
        if consume(literal: "\"-Infinity\"") { return -.infinity }
        let start = index
        guard skipNumber() else { return nil }
        return Double(String(decoding: UnsafeBufferPointer(rebasing: json[start..<index]), as: UTF8.self))
    }

    /// `{"latitude": …, "longitude": …}`, either left out for 0, within ±90 and ±180.
    private mutating func geoPoint() -> GeoPoint? {
        guard consume(UInt8(ascii: "{")) else { return nil }
        var (latitude, longitude): (Double?, Double?) = (nil, nil)
        skipSpace()
        if !consume(UInt8(ascii: "}")) {
            while true {
                skipSpace()
                let key = plainKey()
                skipSpace()
                guard consume(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                guard let value = double() else { return nil }
                switch key {
                case .latitude where latitude == nil: latitude = value
                case .longitude where longitude == nil: longitude = value
                default: return nil
                }
                skipSpace()
                if consume(UInt8(ascii: "}")) { break }
                guard consume(UInt8(ascii: ",")) else { return nil }
            }
        }
        let point = GeoPoint(latitude: latitude ?? 0, longitude: longitude ?? 0)
        guard (-90...90).contains(point.latitude), (-180...180).contains(point.longitude) else { return nil }
        return point
    }

    /// A timestamp as an RFC 3339 string (parsed from its bytes when it has no escapes).
    private mutating func timestamp() -> Timestamp? {
        let start = index
        if let end = plainStringEnd() { return try? Timestamp(rfc3339: UnsafeBufferPointer(rebasing: json[(start + 1)..<(end - 1)])) }
        guard let text = decodedString() else { return nil }
        return try? Timestamp(rfc3339: text)
    }

    /// Skips a JSON number (RFC 8259's grammar); false when there is none.
    private mutating func skipNumber() -> Bool {
        if index < json.count, json[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        guard skipDigits() else { return false }
        if index - integerStart > 1, json[integerStart] == UInt8(ascii: "0") { return false }
        if consume(UInt8(ascii: ".")) { guard skipDigits() else { return false } }
        if index < json.count, json[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < json.count, json[index] == UInt8(ascii: "+") || json[index] == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() else { return false }
        }
        return !continuesNumber()
    }

    private mutating func skipDigits() -> Bool {
        let start = index
        while index < json.count, json[index] >= UInt8(ascii: "0"), json[index] <= UInt8(ascii: "9") { index += 1 }
        return index > start
    }

    /// Whether a number just read runs on into what no JSON number can end with.
    private func continuesNumber() -> Bool {
        guard index < json.count else { return false }
        let byte = json[index]
        return byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// Skips one JSON value of any kind (strings, objects and arrays checked only for their
    /// extent: the `fields` object is read properly afterwards).
    private mutating func skipValue() -> Bool {
        var open = 0
        repeat {
            skipSpace()
            guard index < json.count else { return false }
            switch json[index] {
            case UInt8(ascii: "\""):
                guard plainStringEnd() != nil || decodedString() != nil else { return false }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                open += 1
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard open > 0 else { return false }
                open -= 1
                index += 1
            default:
                index += 1
            }
        } while open > 0
        return true
    }

    /// A string literal of printable ASCII without escapes: its end (after the closing quote),
    /// having moved past it; nil (not moved) for anything else.
    private mutating func plainStringEnd() -> Int? {
        guard index < json.count, json[index] == UInt8(ascii: "\"") else { return nil }
        var end = index + 1
        while end < json.count {
            let byte = json[end]
            if byte == UInt8(ascii: "\"") {
                index = end + 1
                return index
            }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
            end += 1
        }
        return nil
    }

    /// The keys the transcoder reads, told by their bytes (no String of each key is made).
    private enum Key {
        case name, fields, createTime, updateTime, values, latitude, longitude
        case stringValue, mapValue, arrayValue, integerValue, doubleValue, booleanValue, nullValue, timestampValue, bytesValue, referenceValue, geoPointValue

        var text: StaticString {
            switch self {
            case .name: "name"
            case .fields: "fields"
            case .createTime: "createTime"
            case .updateTime: "updateTime"
            case .values: "values"
            case .latitude: "latitude"
            case .longitude: "longitude"
            case .stringValue: "stringValue"
            case .mapValue: "mapValue"
            case .arrayValue: "arrayValue"
            case .integerValue: "integerValue"
            case .doubleValue: "doubleValue"
            case .booleanValue: "booleanValue"
            case .nullValue: "nullValue"
            case .timestampValue: "timestampValue"
            case .bytesValue: "bytesValue"
            case .referenceValue: "referenceValue"
            case .geoPointValue: "geoPointValue"
            }
        }

        /// The key whose text `bytes` are; nil for any other. Told apart by length and first
        /// letter (no two keys share both), then checked byte by byte.
        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let first = bytes.first else { return nil }
            let key: Key
            switch (bytes.count, first) {
            case (4, UInt8(ascii: "n")): key = .name
            case (6, UInt8(ascii: "f")): key = .fields
            case (10, UInt8(ascii: "c")): key = .createTime
            case (10, UInt8(ascii: "u")): key = .updateTime
            case (6, UInt8(ascii: "v")): key = .values
            case (8, UInt8(ascii: "l")): key = .latitude
            case (9, UInt8(ascii: "l")): key = .longitude
            case (11, UInt8(ascii: "s")): key = .stringValue
            case (8, UInt8(ascii: "m")): key = .mapValue
            case (10, UInt8(ascii: "a")): key = .arrayValue
            case (12, UInt8(ascii: "i")): key = .integerValue
            case (11, UInt8(ascii: "d")): key = .doubleValue
            case (12, UInt8(ascii: "b")): key = .booleanValue
            case (9, UInt8(ascii: "n")): key = .nullValue
            case (14, UInt8(ascii: "t")): key = .timestampValue
            case (10, UInt8(ascii: "b")): key = .bytesValue
            case (14, UInt8(ascii: "r")): key = .referenceValue
            case (13, UInt8(ascii: "g")): key = .geoPointValue
            default: return nil
            }
            guard UTF8Order.equal(bytes: bytes, key.text) else { return nil }
            self = key
        }
    }

    /// A key the transcoder reads, as a string literal of printable ASCII without escapes; nil
    /// for any other key (the caller's to refuse).
    private mutating func plainKey() -> Key? {
        let start = index
        guard let end = plainStringEnd() else { return nil }
        return Key(UnsafeBufferPointer(rebasing: json[(start + 1)..<(end - 1)]))
    }

    /// The text of a string literal of printable ASCII without escapes.
    private mutating func plainString() -> String? {
        let start = index
        guard let end = plainStringEnd() else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: json[(start + 1)..<(end - 1)]), as: UTF8.self)
    }

    /// The value of any string literal, as the parser decodes it.
    private mutating func decodedString() -> String? {
        if let plain = plainString() { return plain }
        guard let decoded = JSONParser.string(in: json, at: index) else { return nil }
        index = decoded.end
        return decoded.value
    }

    private mutating func skipSpace() {
        while index < json.count {
            switch json[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
            default: return
            }
        }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < json.count, json[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func consume(literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= json.count else { return false }
        let matches = literal.withUTF8Buffer { expected in json[index..<(index + count)].elementsEqual(expected) }
        if matches { index += count }
        return matches
    }
}
