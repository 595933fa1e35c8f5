import Foundation
import Publishing
import Testing

/// `bundlepress query --structured-query` is the engine's public test surface: every
/// conformance case (computed by the real Firebase JS SDK) must come out of it in the SDK's order,
/// with the documents exported from another project (re-rooted on input, as `build` does).
@Suite struct QueryRunnerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let id: String
        let bundledQuery: Data
        let documents: Data
        let expected: [String]
        var testDescription: String { id }
    }

    static let cases: [Case] = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("QueryEngineTests/Fixtures/query-cases.json")
        let root = try! JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        return (root["cases"] as! [[String: Any]]).compactMap { item in
            // Cases whose product policy rejects the query are covered by the validator tests.
            guard item["productPolicy"] == nil, let expected = item["expected"] as? [String] else { return nil }
            let docs = item["docs"] as! [String: Any]
            var lines = Data()
            for path in docs.keys.sorted() {
                let record: [String: Any] = ["name": "projects/elsewhere/databases/(default)/documents/\(path)", "fields": docs[path]!]
                lines += try! JSONSerialization.data(withJSONObject: record) + Data("\n".utf8)
            }
            return Case(
                id: item["id"] as! String,
                bundledQuery: try! JSONSerialization.data(withJSONObject: item["bundledQuery"]!),
                documents: lines, expected: expected)
        }
    }()

    @Test func coversTheConformanceFile() {
        #expect(Self.cases.count >= 55)
    }

    @Test(arguments: cases)
    func matchesTheJSSDK(_ testCase: Case) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let export = directory.appendingPathComponent("docs.ndjson")
        try testCase.documents.write(to: export)
        let result = try QueryRunner.run(json: Array(testCase.bundledQuery), file: "query.json", inputs: [export.path], database: nil)
        #expect(result.documents.map(\.path.description) == testCase.expected)
        #expect(result.database.project == "demo")
    }

    @Test func reportsQueryErrorsWithTheirPosition() throws {
        let json = Array(#"{"from":[{"collectionId":"c"}],"limit":"x"}"#.utf8)
        let error = try #require(throws: BuildError.self) {
            try QueryRunner.run(json: json, file: "q.json", inputs: [], database: .init(project: "demo"))
        }
        guard case .data(let message, let location) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(location?.description == "q.json:1:40")
        #expect(message.contains("limit"))
        let bare = try #require(throws: BuildError.self) {
            try QueryRunner.run(json: Array(#"{"from":[{"collectionId":"c"}]}"#.utf8), file: "q.json", inputs: [], database: nil)
        }
        #expect(bare.description.contains("--project"))
    }
}
