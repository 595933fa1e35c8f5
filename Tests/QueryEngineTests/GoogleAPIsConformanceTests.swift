import FirestoreModel
import JSONCore
import Testing
@testable import QueryEngine

/// googleapis/conformance-tests `firestore/v1/query-*.json`: the StructuredQuery the server SDKs
/// send for a chain of clauses. Decoding their expected `query` and re-encoding it with our
/// encoder must give the same StructuredQuery up to proto3-JSON equivalence. Differences of
/// form, normalised away by ``canonicalText(_:key:)``:
/// - they write `integerValue` as a string ("5"); we write a JSON integer literal (5), the form
///   that stays exact on Android (bundle-format.md §4);
/// - they omit `"before": false` (the proto3 default); we always write `before`;
/// - key order inside objects differs (`startAt{values, before}` vs theirs), which proto3 JSON ignores.
/// The filter shapes are the same: one filter bare, several as `compositeFilter{op: AND}`,
/// `== NaN` as `unaryFilter IS_NAN`; and the explicit orderBys (incl. `__name__`) are kept as given.
@Suite("Conformance: googleapis firestore/v1 query tests")
struct GoogleAPIsConformanceTests {
    static let files = [
        "query-cursor-docsnap-where-neq-orderby", "query-cursor-vals-2", "query-cursor-vals-docid",
        "query-where-2", "query-where-NaN",
    ]

    @Test(arguments: files)
    func reencodesTheExpectedStructuredQuery(_ file: String) throws {
        let tests = Fixtures.json(file, subdirectory: "Fixtures/googleapis-firestore-v1").objectValue!["tests"]!.arrayValue!
        #expect(!tests.isEmpty)
        for test in tests {
            let spec = test.objectValue!["query"]!.objectValue!
            let expected = try #require(spec["query"], "every copied file has an expressible query")
            let collection = try ResourceName(parsing: spec["collPath"]!.stringValue!)
            let parent = ResourceName(database: collection.database, path: collection.path.parent)

            let query = try Query(structuredQuery: expected, parent: parent)
            var writer = JSONWriter()
            query.encodeStructuredQuery(into: &writer)
            let encoded = try JSONParser.parse(writer.bytes)

            #expect(canonicalText(encoded) == canonicalText(expected))
            #expect(try Query(structuredQuery: encoded, parent: parent) == query)
        }
    }

    /// A text form of a JSON tree that equates proto3-JSON-equivalent StructuredQueries: object
    /// keys sorted, `integerValue` strings as numbers, a missing cursor `before` as false.
    func canonicalText(_ node: JSONNode, key: String? = nil) -> String {
        switch node.kind {
        case .object(let object):
            var members = object.members.map { ($0.key, canonicalText($0.value, key: $0.key)) }
            if key == "startAt" || key == "endAt", object["before"] == nil {
                members.append(("before", "false"))
            }
            return "{" + members.sorted { $0.0 < $1.0 }.map { "\($0.0):\($0.1)" }.joined(separator: ",") + "}"
        case .array(let elements):
            return "[" + elements.map { canonicalText($0) }.joined(separator: ",") + "]"
        case .string(let text) where key == "integerValue":
            return text
        case .string(let text):
            return "\"\(text)\""
        case .number(let number):
            return number.literal
        case .bool(let bool):
            return "\(bool)"
        case .null:
            return "null"
        }
    }
}
