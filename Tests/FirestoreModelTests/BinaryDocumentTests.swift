import FirestoreModel
import Testing

@Suite("Binary documents")
struct BinaryDocumentTests {
    static let values: [Value] = [
        .null, .boolean(true), .boolean(false), .integer(.min), .integer(.max), .integer(0), .integer(-1),
        .double(-0.0), .double(.nan), .double(.infinity), .double(-.infinity), .double(1e-308), .double(.leastNonzeroMagnitude),
        .timestamp(try! Timestamp(seconds: -62_135_596_800, nanos: 0)), .timestamp(try! Timestamp(seconds: 253_402_300_799, nanos: 999_999_999)),
        .string(""), .string("é\u{0301}\u{1F600}\0"), .bytes([]), .bytes(Array(0...255)),
        .reference(ResourceName(database: DatabaseID(project: "p", database: "d"), path: ResourcePath(segments: ["c", "d"]))),
        .geoPoint(GeoPoint(latitude: -90, longitude: 180)),
        .array([]), .array([.integer(1), .array([.map(MapValue([("k", .null)]))])]),
        .map(MapValue()), .map(MapValue([("b", .integer(2)), ("a", .string("x")), ("", .boolean(true))])),
    ]

    @Test func documentsComeBackAsTheyWere() throws {
        let documents = [
            Document(
                path: ResourcePath(segments: ["c", "d", "sub", "e"]),
                fields: MapValue(Self.values.enumerated().map { ("f\($0.offset)", $0.element) }),
                createTime: try Timestamp(seconds: 1, nanos: 2), updateTime: try Timestamp(seconds: 3, nanos: 4)),
            Document(path: ResourcePath(segments: ["c", "x"]), fields: MapValue()),
            Document(path: ResourcePath(segments: ["c", "y"]), fields: MapValue(), updateTime: try Timestamp(seconds: 5, nanos: 0)),
        ]
        var bytes: [UInt8] = []
        for document in documents { document.appendBinary(to: &bytes) }
        var offset = 0
        for document in documents {
            let back = try bytes.withUnsafeBytes { try Document(binary: $0, offset: &offset) }
            #expect(back.path == document.path && back.createTime == document.createTime && back.updateTime == document.updateTime)
            #expect(back.fields.fields.map(\.key) == document.fields.fields.map(\.key))
            // Strict equality: NaN equals NaN, -0.0 differs from 0.0, integers from doubles.
            #expect(zip(back.fields.fields, document.fields.fields).allSatisfy { $0.value == $1.value })
        }
        #expect(offset == bytes.count)
    }

    @Test func damagedBytesAreAnErrorNotACrash() {
        var bytes: [UInt8] = []
        Document(path: ResourcePath(segments: ["c", "d"]), fields: MapValue([("s", .string("text")), ("n", .integer(300))])).appendBinary(to: &bytes)
        for end in 0..<bytes.count {
            var offset = 0
            #expect(throws: BinaryDecodingError.self) { try Array(bytes[..<end]).withUnsafeBytes { _ = try Document(binary: $0, offset: &offset) } }
        }
        // Arrays in arrays past any real document's depth: an error, not a stack overflow.
        var deep: [UInt8] = [2, 1, UInt8(ascii: "c"), 1, UInt8(ascii: "d"), 1, 1, UInt8(ascii: "a")]
        deep += Array(repeating: [10, 1], count: 100_000).joined()
        var deepOffset = 0
        #expect(throws: BinaryDecodingError.self) { try deep.withUnsafeBytes { _ = try Document(binary: $0, offset: &deepOffset) } }
        var unknown = bytes
        unknown[unknown.firstIndex(of: 6)!] = 99  // the string's tag
        var offset = 0
        #expect(throws: BinaryDecodingError.self) { try unknown.withUnsafeBytes { _ = try Document(binary: $0, offset: &offset) } }
    }
}
