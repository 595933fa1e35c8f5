import ExportReader
import FirestoreModel
import JSONCore
import Testing

@Suite("REST NDJSON")
struct NDJSONTests {
    static let readTime = "\"readTime\":\"2024-05-02T00:00:00.000001Z\""
    static let lines = Fixtures.canonicalLines

    /// NDJSON files of each record kind, all holding the four canonical documents.
    static let recordKinds: [(name: String, text: String)] = [
        ("documents", lines.joined(separator: "\n") + "\n"),
        ("runQuery elements", lines.map { "{\"document\":\($0),\(readTime)}" }.joined(separator: "\n")
            + "\n{\(readTime),\"done\":true}\n"),
        ("batchGet elements", "{\"missing\":\"projects/demo/databases/(default)/documents/users/nobody\",\(readTime)}\n"
            + lines.map { "{\"found\":\($0),\(readTime)}" }.joined(separator: "\n")),
        ("documents.list pages", "{\"documents\":[\(lines[0]),\(lines[1])],\"nextPageToken\":\"p2\"}\n"
            + "{\"documents\":[\(lines[2]),\(lines[3])]}\n"),
        ("mixed, CRLF and blank lines", "\r\n\(lines[0])\r\n\r\n  \n{\"document\":\(lines[1])}\r\n{\"found\":\(lines[2])}\r\n"
            + "{\"documents\":[\(lines[3])]}"),
    ]

    @Test(arguments: recordKinds.indices, [7, 1, 64, ExportReader.defaultChunkSize])
    func everyRecordKindYieldsTheCanonicalDataset(kind: Int, chunkSize: Int) throws {
        let path = Fixtures.temporaryFile("export.ndjson", Self.recordKinds[kind].text)
        let reader = ExportReader(target: Fixtures.demo, chunkSize: chunkSize)
        #expect(try reader.detectFormat(of: path) == .restNDJSON)
        expectCanonical(try reader.readAll(path), count: 4)
        expectCanonical(try reader.readAll(path, format: .restNDJSON), count: 4)
    }

    @Test func locationsCountBlankLinesAndPointAtTheDocumentObject() throws {
        let path = Fixtures.temporaryFile("export.ndjson", Self.recordKinds[4].text)
        let documents = try ExportReader(target: Fixtures.demo, chunkSize: 7).readAll(path)
        #expect(documents.map(\.location) == [
            SourceLocation(file: path, line: 2, column: 1),
            SourceLocation(file: path, line: 5, column: 13),
            SourceLocation(file: path, line: 6, column: 10),
            SourceLocation(file: path, line: 7, column: 15),
        ])
    }

    @Test func linesLongerThanTheChunkAndNoFinalNewline() throws {
        let long = "{\"name\":\"c/long\",\"fields\":{\"s\":{\"stringValue\":\"\(String(repeating: "é", count: 5000))\"}}}"
        let path = Fixtures.temporaryFile("long.ndjson", long + "\n" + long.replacingOccurrences(of: "c/long", with: "c/last"))
        let documents = try ExportReader(target: Fixtures.demo, chunkSize: 7).readAll(path)
        #expect(documents.map(\.document.id) == ["long", "last"])
        #expect(documents.last?.document.fields["s"] == .string(String(repeating: "é", count: 5000)))
    }

    /// A large file reports how far it is as it goes, chunk by chunk, up to its size.
    @Test func progressGrowsByChunkToTheFileSize() throws {
        let text = (0..<400).map { "{\"name\":\"c/d\($0)\",\"fields\":{\"n\":{\"integerValue\":\"\($0)\"}}}" }.joined(separator: "\n") + "\n"
        let path = Fixtures.temporaryFile("progress.ndjson", text)
        var reports: [Int] = []
        var documents = 0
        try ExportReader(target: Fixtures.demo, chunkSize: 1024).read(path, progress: { reports.append($0) }) { _ in documents += 1 }
        #expect(documents == 400)
        #expect(reports.count >= text.utf8.count / 1024)
        #expect(reports == reports.sorted() && Set(reports).count == reports.count, "strictly growing")
        #expect(reports.last == text.utf8.count)
    }

    @Test func pullingStopsWhereTheCallerWants() throws {
        var source = try ExportReader(target: Fixtures.demo).open(Fixtures.path("canonical/rest-documents.ndjson"))
        #expect(try source.next()?.document.id == "LA")
        #expect(try source.next()?.document.id == "SF")
    }

    /// Batches of lines are decoded on several threads: documents must still come out in file
    /// order, and a bad line must surface after exactly the documents of the lines before it.
    @Test(arguments: [64, 4096, ExportReader.defaultChunkSize])
    func parallelBatchesKeepFileOrderAndStopAtTheFirstBadLine(chunkSize: Int) throws {
        let template = Self.lines[0]
        let good = (1...1500).map { template.replacingOccurrences(of: "documents/cities/LA", with: "documents/cities/c\($0)") }
        var lines = good
        lines[1036] = "{\"name\": oops}"
        lines[1200] = "{]"
        let path = Fixtures.temporaryFile("many.ndjson", lines.joined(separator: "\n") + "\n")
        let reader = ExportReader(target: Fixtures.demo, chunkSize: chunkSize)

        var seen: [String] = []
        let error = exportError {
            try reader.read(path) { seen.append($0.document.path.description) }
        }
        #expect(seen == (1...1036).map { "cities/c\($0)" })
        guard case .syntax(let location, _) = error else {
            Issue.record("expected a syntax error, got \(String(describing: error))")
            return
        }
        #expect(location.line == 1037)
        #expect(location.column == 10)

        let clean = Fixtures.temporaryFile("many.ndjson", good.joined(separator: "\n"))
        #expect(try reader.readAll(clean).map(\.document.path.description) == (1...1500).map { "cities/c\($0)" })
    }
}
