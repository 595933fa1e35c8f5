import FirestoreModel
import JSONCore
import Testing
@testable import QueryEngine

/// One case of `query-cases.json`: documents, a bundled query, and what the real JS SDK
/// 12.14.0 returned (or what BundlePress must do instead, `productPolicy`).
struct ConformanceCase: Sendable, CustomTestStringConvertible {
    var id: String
    var docs: JSONObject
    var bundledQuery: JSONNode
    var expected: [String]?
    var productPolicy: String?

    var testDescription: String { id }

    static let all: [ConformanceCase] = {
        let root = Fixtures.json("query-cases")
        return root.objectValue!["cases"]!.arrayValue!.map { node in
            let object = node.objectValue!
            return ConformanceCase(
                id: object["id"]!.stringValue!,
                docs: object["docs"]!.objectValue!,
                bundledQuery: object["bundledQuery"]!,
                expected: object["expected"]?.arrayValue?.map { $0.stringValue! },
                productPolicy: object["productPolicy"]?.stringValue
            )
        }
    }()

    func store() throws -> DocumentStore {
        var store = DocumentStore(database: Fixtures.database)
        for member in docs.members {
            let fields = try MapValue(protoJSONFields: member.value, relativeTo: Fixtures.database)
            store.insert(Document(path: try ResourcePath(parsing: member.key), fields: fields))
        }
        return store
    }
}

@Suite("Conformance: query-cases.json (JS SDK 12.14.0 oracle)")
struct ConformanceTests {
    @Test func hasEveryCase() {
        #expect(ConformanceCase.all.count == 60)
    }

    @Test(arguments: ConformanceCase.all)
    func conformance(_ testCase: ConformanceCase) throws {
        let store = try testCase.store()
        let bundled = try BundledQuery(json: testCase.bundledQuery)
        #expect(bundled.database == Fixtures.database)
        let results = store.paths(bundled.query)
        let problems = QueryValidator().problems(in: bundled)

        switch testCase.id {
        case "gte-null-client-behaviour":
            // The client evaluates `>= null` (matching only nulls); the backend rejects it, so we do.
            #expect(results == testCase.expected)
            #expect(problems.map(\.rule) == [.nullOrNaNComparison])
        case "offset-ignored-by-client":
            // Clients drop offset, and so does evaluation; validation rejects it.
            #expect(results == testCase.expected)
            #expect(problems.map(\.rule) == [.offsetOrSelect])
        case "limit-last-without-orderby":
            // getDocsFromCache's order (by __name__); getDocs()/onSnapshot() throw, so we reject.
            #expect(results == testCase.expected)
            #expect(problems.map(\.rule) == [.limitToLastWithoutOrderBy])
        case "enc-ts-offset-crashes-sdk":
            // The SDK asserts on "2024-01-01T01:00:00+01:00". Our model normalises offsets to UTC on
            // input, so a = 00:00:00Z sorts before b = 00:30:00Z, and what we emit is a Z timestamp
            // the SDK orders the same way.
            #expect(testCase.expected == nil)
            #expect(results == ["c/a", "c/b"])
            let a = store.evaluate(bundled.query).first!
            #expect(a.fields["v"]!.protoJSONString == #"{"timestampValue":"2024-01-01T00:00:00.000000000Z"}"#)
            #expect(problems.isEmpty)
        default:
            #expect(testCase.productPolicy == nil)
            #expect(results == testCase.expected)
            // Web is the oracle's client; OR cases are checked against Android/iOS in the unit tests.
            let webProblems = QueryValidator(clients: .web).problems(in: bundled)
            #expect(webProblems.isEmpty, "\(webProblems)")
        }
    }

    /// Re-encoding every case's query and decoding it again gives the same results.
    @Test(arguments: ConformanceCase.all)
    func reencodedQueryGivesTheSameResults(_ testCase: ConformanceCase) throws {
        let store = try testCase.store()
        let bundled = try BundledQuery(json: testCase.bundledQuery)
        let reread = try BundledQuery(jsonBytes: bundled.jsonBytes)
        #expect(store.paths(reread.query) == store.paths(bundled.query))
        #expect(reread.jsonBytes == bundled.jsonBytes)
    }
}
