import FirestoreModel
import JSONCore
import Testing
@testable import ExportReader

/// A REST line read by ``RESTDocumentTranscoder`` gives exactly what decoding, re-rooting and
/// encoding it gives; a line it cannot prove so is left to the decoder.
@Suite("REST lines read without decoding every field")
struct TranscodingTests {
    static let target = DatabaseID(project: "demo")
    static let kept = [try! FieldPath(serverFormat: "published"), try! FieldPath(serverFormat: "meta.views")]
    static let root = "projects/demo/databases/(default)/documents"

    /// Lines the transcoder reads: every value type and form, keys out of order, whitespace.
    static let common = [
        #"{"name":"\#(root)/c/1","fields":{"s":{"stringValue":"plain"},"b":{"booleanValue":true},"i":{"integerValue":"-42"},"d":{"doubleValue":3.0}},"createTime":"2024-01-02T03:04:05.678901Z","updateTime":"2024-03-01T00:00:00Z"}"#,
        #"{ "fields" : { "z" : { "nullValue" : null } , "a" : { "nullValue" : "NULL_VALUE" } } , "name" : "\#(root)/c/2" }"#,
        #"{"name":"c/3","fields":{"u":{"stringValue":"na\u00efve caf\u00e9 \ud83d\ude00 \"q\" \\ \/ \n"},"raw":{"stringValue":"naïve 😀"}}}"#,
        #"{"name":"\#(root)/c/4","fields":{"i":{"integerValue":0},"j":{"integerValue":"0"},"k":{"integerValue":123456789012345678},"d1":{"doubleValue":1e5},"d2":{"doubleValue":-0.0},"d3":{"doubleValue":1.50},"d4":{"doubleValue":"NaN"},"d5":{"doubleValue":"-Infinity"},"d6":{"doubleValue":1E400},"d7":{"doubleValue":0.1}}}"#,
        #"{"name":"\#(root)/c/5","fields":{"t":{"timestampValue":"2024-05-01T12:34:56+02:00"},"t2":{"timestampValue":"2024-05-01T12:34:56.1Z"},"by":{"bytesValue":"aGk-_w"},"by2":{"bytesValue":"aGk+/w=="}}}"#,
        // Timestamps: copied when written as the encoder writes them, else parsed and written so.
        #"{"name":"\#(root)/c/5c","fields":{"a":{"timestampValue":"2024-05-01T12:34:56.123456789Z"},"b":{"timestampValue":"2024-05-01t12:34:56.123456789Z"},"c":{"timestampValue":"2024-05-01T12:34:56.123456789z"},"d":{"timestampValue":"2024-05-01T12:34:56.12345678Z"},"e":{"timestampValue":"2024-05-01T12:34:56.123456789+00:00"}},"createTime":"2024-01-02T03:04:05.678901234Z"}"#,
        // Base64 in every form: copied when canonical, else decoded and written canonical.
        #"{"name":"\#(root)/c/5b","fields":{"a":{"bytesValue":"aGk+/w"},"b":{"bytesValue":"aGk+/x=="},"c":{"bytesValue":"aGk+\/w=="},"d":{"bytesValue":""},"e":{"bytesValue":"AA=="},"f":{"bytesValue":"AB=="},"g":{"bytesValue":"AAA="},"h":{"bytesValue":"AAB="}}}"#,
        #"{"name":"\#(root)/c/6","fields":{"r":{"referenceValue":"\#(root)/users/u1"},"rel":{"referenceValue":"users/u2"},"g":{"geoPointValue":{"longitude":-122.5,"latitude":37}},"g0":{"geoPointValue":{}}}}"#,
        #"{"name":"\#(root)/c/7","fields":{"m":{"mapValue":{}},"m2":{"mapValue":{"fields":{}}},"a":{"arrayValue":{}},"a2":{"arrayValue":{"values":[]}},"meta":{"mapValue":{"fields":{"views":{"integerValue":"7"},"lang":{"stringValue":"en"},"b":{"arrayValue":{"values":[{"mapValue":{"fields":{"y":{"integerValue":"1"},"x":{"integerValue":"2"}}}},{"integerValue":"3"}]}}}}}}}"#,
        #"{"name":"\#(root)/c/8","fields":{"published":{"booleanValue":true},"b b":{"integerValue":"1"},"b":{"integerValue":"2"},"b!":{"integerValue":"3"},"B":{"integerValue":"4"},"":{"integerValue":"5"}},"updateTime":"2024-03-01T00:00:00.000000001Z"}"#,
        // From another project: the name and the references into it move to the target.
        #"{"name":"projects/prod/databases/(default)/documents/c/9","fields":{"r":{"referenceValue":"projects/prod/databases/(default)/documents/u/1"},"rel":{"referenceValue":"u/2"},"published":{"mapValue":{"fields":{"r":{"referenceValue":"u/3"}}}}}}"#,
        #"{"name":"\#(root)/c/10"}"#,
        // Times out of order are the build's to report, not the reader's.
        #"{"name":"\#(root)/c/11","fields":{"s":{"stringValue":"x"}},"updateTime":"2024-01-01T00:00:00Z","createTime":"2024-02-01T00:00:00Z"}"#,
    ]

    /// Lines left to the decoder: valid ones of rarer shapes, and invalid ones (whose errors the
    /// decoder reports).
    static let others = [
        #"{"name":"\#(root)/c/1","fields":{"k\u00e9":{"stringValue":"x"}}}"#,  // an escaped key
        #"{"name":"\#(root)/c/1","fields":{"ké":{"stringValue":"x"}}}"#,  // a non-ASCII key
        #"{"name":"\#(root)/c/1","fields":{"a":{"integerValue":"1"},"a":{"integerValue":"2"}}}"#,  // a key twice
        #"{"name":"\#(root)/c/1","fields":{"i":{"integerValue":"007"}}}"#,
        #"{"name":"\#(root)/c/1","fields":{"i":{"integerValue":"-0"}}}"#,
        #"{"name":"\#(root)/c/1","fields":{"i":{"integerValue":"+5"}}}"#,
        #"{"name":"\#(root)/c/1","fields":{"i":{"integerValue":"9223372036854775808"}}}"#,
        #"{"name":"\#(root)/c/1","fields":{"i":{"integerValue":1.5}}}"#,
        #"{"name":"\#(root)/c/1","fields":{"d":{"doubleValue":"1.5"}}}"#,
        #"{"name":"\#(root)/c/1","fields":{"d":{"doubleValue":01}}}"#,
        #"{"name":"\#(root)/c/1","fields":{"t":{"timestampValue":{"seconds":5}}}}"#,
        #"{"name":"\#(root)/c/1","fields":{"t":{"timestampValue":"yesterday"}}}"#,
        #"{"name":"\#(root)/c/1","fieldz":{}}"#, #"{"name":"\#(root)/c/1","fields":{"s":{"stringVaIue":"x"}}}"#,  // keys one letter off
        #"{"name":"\#(root)/c/1","fields":{"t":{"timestampValue":"2024-02-30T00:00:00.000000000Z"}}}"#,  // the shape, no such day
        #"{"name":"\#(root)/c/1","fields":{"r":{"referenceValue":"projects/other/databases/(default)/documents/u/1"}}}"#,
        #"{"name":"\#(root)/c/1","fields":{"r":{"referenceValue":"users"}}}"#,
        #"{"name":"\#(root)/c/1","fields":{"g":{"geoPointValue":{"latitude":91}}}}"#,
        #"{"name":"\#(root)/c/1","fields":{"s":{"stringValue":"x","integerValue":"1"}}}"#,
        #"{"name":"\#(root)/c/1","fields":{"s":{"stringValue":"\ud800"}}}"#,
        #"{"name":"\#(root)/c/1","fields":{"m":{"mapValue":{"fields":{},"x":1}}}}"#,
        #"{"name":"\#(root)/c/1","fields":{"s":{"textValue":"x"}}}"#,
        #"{"name":"\#(root)/c","fields":{}}"#,
        #"{"name":"\#(root)/c/1","name":"\#(root)/c/2"}"#,
        #"{"name":"\#(root)/c/1","extra":1}"#,
        #"{"name":"\#(root)/c/1"} x"#,
        #" {"name":"\#(root)/c/1"}"#,
        #"{"document":{"name":"\#(root)/c/1"},"readTime":"2024-01-01T00:00:00Z"}"#,
        #"{"name":"\#(root)/c/1","fields":{"s":{"stringValue":"x"}}"#,
    ]

    @Test(arguments: common)
    func aCommonLineReadsAsDecodingGives(line: String) throws {
        let transcoded = try #require(transcode(line), "the transcoder gave up on \(line)")
        let (document, source) = try #require(try decode(line))
        #expect(transcoded.source == source)
        #expect(transcoded.document.path == document.path)
        #expect(transcoded.document.createTime == document.createTime && transcoded.document.updateTime == document.updateTime)
        #expect(Value.map(transcoded.document.fields) == .map(document.fields.keepingOnly(Self.kept)))
        var writer = JSONWriter()
        document.fields.encodeFields(into: &writer)
        #expect(String(decoding: transcoded.encodedFields, as: UTF8.self) == String(decoding: writer.bytes, as: UTF8.self))
    }

    @Test(arguments: others)
    func anotherLineIsLeftToTheDecoder(line: String) {
        #expect(transcode(line) == nil)
    }

    /// Reading a file with `fieldsKept` gives the same documents, narrowed, with their fields
    /// encoded; a line left to the decoder comes whole.
    @Test func aReaderKeepingFieldsGivesEncodedDocuments() throws {
        let path = Fixtures.temporaryFile("export.ndjson", (Self.common + [Self.others[0]]).joined(separator: "\n"))
        let whole = try ExportReader(target: Self.target).readAll(path)
        var narrowed: [ExportedDocument] = []
        try ExportReader(target: Self.target, fieldsKept: Self.kept).read(path) { narrowed.append($0) }
        #expect(narrowed.map(\.document.path) == whole.map(\.document.path))
        #expect(narrowed.map(\.location) == whole.map(\.location))
        #expect(narrowed.dropLast().allSatisfy { $0.encodedFields != nil })
        #expect(narrowed.last?.encodedFields == nil && narrowed.last.map { Value.map($0.document.fields) } == whole.last.map { .map($0.document.fields) })
    }

    /// Random documents written in the forms exports use (keys in any order, integers as
    /// strings or numbers, strings escaped or raw UTF-8, whitespace): every line read gives what
    /// decoding gives, and most lines are read.
    @Test func randomDocumentsReadAsDecodingGives() throws {
        var random = SplitMix(seed: 0x5EED_0014)
        var read = 0
        for index in 0..<400 {
            let fields = MapValue((0..<random.below(7)).map { _ in (random.key(), random.value(depth: 0)) })
            let line = #"{"name":"\#(Self.root)/c/d\#(index)","#
                + #""fields":\#(random.fields(fields)), "updateTime":"2024-03-01T00:00:00.5Z"}"#
            guard let transcoded = transcode(line) else { continue }
            read += 1
            let (document, _) = try #require(try decode(line))
            #expect(Value.map(transcoded.document.fields) == .map(document.fields.keepingOnly(Self.kept)), "\(line)")
            var writer = JSONWriter()
            document.fields.encodeFields(into: &writer)
            #expect(String(decoding: transcoded.encodedFields, as: UTF8.self) == String(decoding: writer.bytes, as: UTF8.self), "\(line)")
        }
        #expect(read > 200, "only \(read) of 400 lines were read without decoding")
    }

    private func transcode(_ line: String) -> RESTDocumentTranscoder.Transcoded? {
        Array(line.utf8).withUnsafeBufferPointer { RESTDocumentTranscoder(target: Self.target, kept: Self.kept).transcode($0) }
    }

    /// The document of `line` as the decoder reads it, re-rooted, with the database it named.
    private func decode(_ line: String) throws -> (Document, DatabaseID)? {
        var result: (Document, DatabaseID)?
        let node = try JSONParser.parse(Array(line.utf8))
        try RESTRecordDecoder(target: Self.target).decode(node, locate: { _ in SourceLocation(file: "-", line: 1, column: 1) }) { document, source, _ in
            result = (document, source)
        }
        return result
    }
}

/// A seeded generator of values and of the JSON an export may write them in.
private struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func coin() -> Bool { next() & 1 == 0 }

    /// A field name: mostly plain ASCII (with the characters that sort around a quote), now
    /// and then one the transcoder leaves to the decoder.
    mutating func key() -> String {
        let pieces = ["a", "b", "published", "meta", "views", " ", "!", "Z", "_x", "é", "1"]
        return (0..<(1 + below(3))).map { _ in pieces[below(pieces.count)] }.joined()
    }

    mutating func text() -> String {
        let pieces = ["plain", " ", "\"", "\\", "/", "\n", "\u{1}", "naïve", "😀", "ü", "@example.com", "\u{7F}"]
        return (0..<below(5)).map { _ in pieces[below(pieces.count)] }.joined()
    }

    mutating func value(depth: Int) -> Value {
        switch below(depth < 2 ? 12 : 10) {
        case 0: return .null
        case 1: return .boolean(coin())
        case 2: return .integer([0, -1, 42, Int64.max, Int64.min, Int64(bitPattern: next())][below(6)])
        case 3: return .double([0.0, -0.0, 1.5, 3.0, 1e21, 1e-7, .nan, .infinity, Double(bitPattern: next() >> 2)][below(9)])
        case 4: return .timestamp(try! Timestamp(seconds: Int64(below(4_000_000_000)), nanos: Int32(below(1_000_000_000))))
        case 5: return .string(text())
        case 6: return .bytes((0..<below(9)).map { _ in UInt8(truncatingIfNeeded: next()) })
        case 7: return .reference(ResourceName(database: TranscodingTests.target, path: ResourcePath(segments: ["users", "u\(below(9))"])))
        case 8: return .geoPoint(GeoPoint(latitude: Double(below(180)) - 90, longitude: Double(below(360)) - 180.5))
        case 9: return .string(text())
        case 10: return .array((0..<below(4)).map { _ in value(depth: depth + 1) })
        default: return .map(MapValue((0..<below(4)).map { _ in (key(), value(depth: depth + 1)) }))
        }
    }

    /// `fields` as an export may write them.
    mutating func fields(_ fields: MapValue) -> String {
        let members = fields.fields.shuffled(using: &self).map { field in "\(string(field.key)):\(space())\(json(field.value))" }
        return "{\(space())" + members.joined(separator: ",\(space())") + "}"
    }

    private mutating func json(_ value: Value) -> String {
        switch value {
        case .integer(let integer): return coin() ? #"{"integerValue":"\#(integer)"}"# : #"{"integerValue": \#(integer)}"#
        case .string(let text): return #"{"stringValue":\#(string(text))}"#
        case .array(let values) where !values.isEmpty:
            return #"{"arrayValue":{"values":["# + values.map { json($0) }.joined(separator: ", ") + "]}}"
        case .map(let map) where !map.isEmpty || coin(): return #"{"mapValue":{"fields":\#(fields(map))}}"#
        default: return value.protoJSONString
        }
    }

    /// A string literal, escaped as the bundle encoder escapes it or with raw UTF-8.
    private mutating func string(_ text: String) -> String {
        var writer = JSONWriter()
        writer.string(text)
        let escaped = String(decoding: writer.bytes, as: UTF8.self)
        guard coin() else { return escaped }
        var raw = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": raw += "\\\""
            case "\\": raw += "\\\\"
            case _ where scalar.value < 0x20: raw += String(format: "\\u%04X", scalar.value)
            default: raw.unicodeScalars.append(scalar)
            }
        }
        return raw + "\""
    }

    private mutating func space() -> String { ["", " ", "\n", "\t"][below(4)] }
}

extension SplitMix: RandomNumberGenerator {}
