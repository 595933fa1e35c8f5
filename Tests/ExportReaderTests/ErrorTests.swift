import ExportReader
import FirestoreModel
import Foundation
import JSONCore
import Testing

@Suite("Errors")
struct ErrorTests {
    static let good = Fixtures.canonicalLines[0]

    func error(_ text: String, name: String = "stories.ndjson", format: ExportFormat? = nil, chunkSize: Int = 7) -> (path: String, error: ExportError?) {
        let path = Fixtures.temporaryFile(name, text)
        let reader = ExportReader(target: Fixtures.demo, chunkSize: chunkSize)
        return (path, exportError { _ = try reader.readAll(path, format: format) })
    }

    @Test(arguments: [7, 1, ExportReader.defaultChunkSize])
    func syntaxErrorOnLineNOfNDJSON(chunkSize: Int) {
        let (path, error) = error("\(Self.good)\n\(Self.good)\n\n{\"name\":\"c/x\",}\n", chunkSize: chunkSize)
        #expect(error == .syntax(SourceLocation(file: path, line: 4, column: 15), message: "unexpected '}'; expected a string key in an object"))
        #expect(error?.description == "\(path):4:15: invalid JSON: unexpected '}'; expected a string key in an object")
    }

    @Test func badIntegerValueDeepInADocument() {
        let bad = #"{"name":"stories/s1","fields":{"m":{"mapValue":{"fields":{"a":{"arrayValue":{"values":[{"integerValue":"12x"}]}}}}}}}"#
        let (path, error) = error(Array(repeating: Self.good, count: 11).joined(separator: "\n") + "\n" + bad + "\n")
        #expect(error?.description == "\(path):12:104: integerValue must be a decimal 64-bit integer, found \"12x\"")
    }

    @Test func badIntegerValueInAPrettyPrintedFile() {
        let text = """
            {
              "name": "stories/s1",
              "fields": {
                "n": { "integerValue": "99999999999999999999" }
              }
            }
            """
        let (path, error) = error(text, name: "story.json")
        #expect(error?.description == "\(path):4:28: integerValue must be a decimal 64-bit integer, found \"99999999999999999999\"")
    }

    @Test func nameOfACollection() {
        let (path, error) = error(#"{"name":"projects/demo/databases/(default)/documents/cities"}"# + "\n" + Self.good + "\n")
        #expect(error?.description == "\(path):1:9: document name \"projects/demo/databases/(default)/documents/cities\" names a collection, not a document (it needs an even number of path segments)")
    }

    @Test func nameWithAnEmptySegment() {
        let (path, error) = error(Self.good + "\n" + #"{"document":{"name":"cities//SF"}}"# + "\n")
        guard case .invalidDocument(let location, let message)? = error else {
            Issue.record("expected invalidDocument, got \(String(describing: error))")
            return
        }
        #expect(location == SourceLocation(file: path, line: 2, column: 21))
        #expect(message.contains("empty path segment"))
    }

    @Test func trailingGarbageAfterAnNDJSONRecord() {
        let (path, error) = error(Self.good + "\n" + #"{"name":"c/a"} x"# + "\n")
        #expect(error == .syntax(SourceLocation(file: path, line: 2, column: 16), message: "unexpected 'x' after the JSON value"))
    }

    @Test func trailingGarbageAfterASingleValue() {
        let (path, error) = error("[\n" + Self.good + "\n]\n]\n", name: "all.json")
        #expect(error == .syntax(SourceLocation(file: path, line: 4, column: 1), message: "unexpected ']' after the JSON value"))
    }

    @Test func recordThatIsNotADocument() {
        let (path, error) = error(Self.good + "\n" + #"{"title":"x","body":"y"}"# + "\n")
        #expect(error == .notADocument(SourceLocation(file: path, line: 2, column: 1), found: "an object with keys \"title\", \"body\""))
        #expect(error?.description.contains("expected a Firestore REST document") == true)
    }

    @Test func arrayElementThatIsNotADocument() {
        let (path, error) = error("[\n" + Self.good + ",\n 42\n]", name: "all.json")
        #expect(error == .notADocument(SourceLocation(file: path, line: 3, column: 2), found: "a number"))
    }

    @Test func unknownKeyInARecord() {
        let (path, error) = error(Self.good + "\n" + #"{"found":{"name":"c/a"},"extra":1}"# + "\n")
        #expect(error?.description == "\(path):2:25: unknown key \"extra\" in a batchGet response element; expected \"found\", \"missing\", \"readTime\", \"transaction\"")
    }

    @Test func emptyAndBlankFiles() {
        for text in ["", "  \n\r\n\t\n"] {
            for format in [nil, ExportFormat.rest, .restNDJSON] {
                let (path, error) = error(text, format: format)
                #expect(error == .empty(file: path))
            }
        }
    }

    @Test func directory() {
        let directory = (Fixtures.temporaryFile("x", "") as NSString).deletingLastPathComponent
        let error = exportError { _ = try ExportReader(target: Fixtures.demo).readAll(directory) }
        #expect(error == .isDirectory(file: directory))
        #expect(error?.description == "\(directory): is a directory; expected an export file (JSON or NDJSON) or the folder of a managed or emulator export")
    }

    @Test func missingFile() {
        let error = exportError { _ = try ExportReader(target: Fixtures.demo).readAll("/nonexistent/stories.ndjson") }
        #expect(error == .unreadable(file: "/nonexistent/stories.ndjson", reason: "No such file or directory"))
    }
}
