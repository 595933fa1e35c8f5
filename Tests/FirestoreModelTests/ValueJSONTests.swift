import FirestoreModel
import JSONCore
import Testing

@Suite struct ValueJSONTests {
    let db = DatabaseID(project: "demo")

    private func decode(_ json: String) throws(JSONDecodingError) -> Value {
        let node = try! JSONParser.parse(Array(json.utf8))
        return try Value(protoJSON: node, relativeTo: db)
    }

    private func encode(_ value: Value) -> String { value.protoJSONString }

    @Test(arguments: [
        (#"{"nullValue":null}"#, #"{"nullValue":null}"#),
        (#"{"nullValue":"NULL_VALUE"}"#, #"{"nullValue":null}"#),
        (#"{"booleanValue":true}"#, #"{"booleanValue":true}"#),
        (#"{"integerValue":"9223372036854775807"}"#, #"{"integerValue":9223372036854775807}"#),
        (#"{"integerValue":-5}"#, #"{"integerValue":-5}"#),
        (#"{"doubleValue":1}"#, #"{"doubleValue":1.0}"#),
        (#"{"doubleValue":-0.0}"#, #"{"doubleValue":-0.0}"#),
        (#"{"doubleValue":"NaN"}"#, #"{"doubleValue":"NaN"}"#),
        (#"{"doubleValue":"-Infinity"}"#, #"{"doubleValue":"-Infinity"}"#),
        (#"{"doubleValue":"4.5"}"#, #"{"doubleValue":4.5}"#),
        (#"{"timestampValue":"2024-01-01T01:00:00+01:00"}"#, #"{"timestampValue":"2024-01-01T00:00:00.000000000Z"}"#),
        (#"{"timestampValue":{"seconds":"1704067200","nanos":5}}"#, #"{"timestampValue":"2024-01-01T00:00:00.000000005Z"}"#),
        (#"{"stringValue":"é😀"}"#, #"{"stringValue":"\u00e9\ud83d\ude00"}"#),
        (#"{"bytesValue":"AAH-_w"}"#, #"{"bytesValue":"AAH+/w=="}"#),
        (#"{"referenceValue":"users/u1"}"#, #"{"referenceValue":"projects/demo/databases/(default)/documents/users/u1"}"#),
        (#"{"geoPointValue":{"latitude":37.5}}"#, #"{"geoPointValue":{"latitude":37.5,"longitude":0.0}}"#),
        (#"{"arrayValue":{}}"#, #"{"arrayValue":{}}"#),
        (#"{"arrayValue":{"values":[{"integerValue":"1"},{"arrayValue":{}}]}}"#, #"{"arrayValue":{"values":[{"integerValue":1},{"arrayValue":{}}]}}"#),
        (#"{"mapValue":{"fields":{}}}"#, #"{"mapValue":{}}"#),
        (#"{"mapValue":{"fields":{"z":{"nullValue":null},"a":{"booleanValue":false}}}}"#, #"{"mapValue":{"fields":{"a":{"booleanValue":false},"z":{"nullValue":null}}}}"#),
    ])
    func decodesEveryInputFormAndEmitsTheCanonicalOne(input: String, expected: String) throws {
        let value = try decode(input)
        #expect(encode(value) == expected)
        #expect(try decode(expected) == value)
    }

    @Test(arguments: [
        (#"{"integerValue":"12x"}"#, 16, "integerValue must be a decimal 64-bit integer, found \"12x\""),
        (#"{"integerValue":1.5}"#, 16, "integerValue must be an integer, found 1.5"),
        (#"{"integerValue":9223372036854775808}"#, 16, "does not fit in a 64-bit integer"),
        (#"{"booleanValue":"true"}"#, 16, "booleanValue must be true or false, found a string"),
        (#"{"stringValue":"a","integerValue":"1"}"#, 0, "expected exactly one of"),
        (#"{"textValue":"a"}"#, 1, "unknown value type \"textValue\""),
        (#"{"timestampValue":"yesterday"}"#, 18, "timestampValue: \"yesterday\" is not an RFC 3339 timestamp"),
        (#"{"bytesValue":"*"}"#, 14, "bytesValue must be base64"),
        (#"{"referenceValue":"users"}"#, 18, "does not name a document"),
        (#"{"geoPointValue":{"latitude":91,"longitude":0}}"#, 17, "outside latitude"),
        (#"{"mapValue":{"fields":{"a":1}}}"#, 27, "expected a Firestore value object"),
        (#"{"arrayValue":{"values":[], "x":1}}"#, 28, "unknown key \"x\" in arrayValue"),
    ])
    func rejectsBadValuesWithOffsetAndReason(input: String, offset: Int, message: String) throws {
        let error = try #require(throws: JSONDecodingError.self) { try decode(input) }
        #expect(error.offset == offset)
        #expect(error.message.contains(message), "\(error.message)")
    }

    /// A resource name written from its parts is its description written as a string: escapes,
    /// non-ASCII segments and a database's bare documents root included.
    @Test func aNameIsWrittenAsItsDescription() throws {
        let names = [
            ResourceName(database: db, path: try ResourcePath(parsing: "cities/SF")),
            ResourceName(database: DatabaseID(project: "p-1", database: "db\"x"), path: try ResourcePath(parsing: "c/\u{e9}t\u{e9} \\q/sub/\u{1F600}\n")),
            ResourceName(database: db, path: .root),
        ]
        for name in names {
            var parts = JSONWriter()
            parts.string(name)
            var whole = JSONWriter()
            whole.string(name.description)
            #expect(parts.bytes == whole.bytes, "\(name)")
            #expect(name.quotedJSON == whole.bytes, "\(name)")
        }
    }

    @Test func decodesAndEncodesRESTDocuments() throws {
        let json = #"{"name":"projects/other/databases/(default)/documents/cities/SF","fields":{"pop":{"integerValue":"1"}},"createTime":"2024-01-01T00:00:00Z","updateTime":"2024-01-02T00:00:00.5Z"}"#
        let (database, document) = try Document.decodeREST(try JSONParser.parse(Array(json.utf8)), relativeTo: db)
        #expect(database == DatabaseID(project: "other"))
        #expect(document.path.description == "cities/SF")
        var writer = JSONWriter()
        document.encodeBundleJSON(into: &writer, database: db)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"name":"projects/demo/databases/(default)/documents/cities/SF","fields":{"pop":{"integerValue":1}},"createTime":"2024-01-01T00:00:00.000000000Z","updateTime":"2024-01-02T00:00:00.500000000Z"}"#)

        let relative = #"{"name":"cities/LA"}"#
        let (relativeDB, empty) = try Document.decodeREST(try JSONParser.parse(Array(relative.utf8)), relativeTo: db)
        #expect(relativeDB == db)
        #expect(empty.fields.isEmpty && empty.createTime == nil)

        let collection = #"{"name":"cities"}"#
        #expect(throws: JSONDecodingError.self) { try Document.decodeREST(try! JSONParser.parse(Array(collection.utf8)), relativeTo: db) }
    }

    @Test func looksUpNestedFieldPaths() throws {
        let fields = MapValue([("a", .map(MapValue([("b", .integer(1))]))), ("a.b", .integer(2)), ("arr", .array([.integer(1)]))])
        #expect(fields.value(at: try FieldPath(serverFormat: "a.b")) == .integer(1))
        #expect(fields.value(at: try FieldPath(serverFormat: "`a.b`")) == .integer(2))
        #expect(fields.value(at: try FieldPath(serverFormat: "arr.`0`")) == nil)
        #expect(fields.value(at: try FieldPath(serverFormat: "a.b.c")) == nil)
    }
}
