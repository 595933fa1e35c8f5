import ExportReader
import FirestoreModel
import JSONCore
import Testing

/// A file cut into byte ranges is read record by record exactly once, with the locations of the
/// whole file; an ``ExportedDocumentLog`` gives back what was written to it.
@Suite("Byte ranges and document logs")
struct ByteRangeTests {
    /// Lines of several lengths, blank lines, a CRLF and a record whose object does not start the
    /// line (a list page), so the column is found by a scan.
    static let lines = [
        #"{"name":"projects/demo/databases/(default)/documents/c/a","fields":{"n":{"integerValue":"1"}}}"#,
        "",
        #"{"name":"projects/demo/databases/(default)/documents/c/b","fields":{"s":{"stringValue":"a longer value, so lines differ"}}}"# + "\r",
        "   ",
        #"{"documents":[{"name":"projects/demo/databases/(default)/documents/c/c"},{"name":"projects/demo/databases/(default)/documents/c/d"}]}"#,
        #"{"name":"projects/demo/databases/(default)/documents/c/e","updateTime":"2024-01-01T00:00:00Z"}"#,
    ]

    static func describe(_ documents: [ExportedDocument]) -> [String] {
        documents.map { "\($0.document.path) \($0.location)" }
    }

    @Test(arguments: [3, 4096])
    func everyCutReadsEveryRecordOnce(chunkSize: Int) throws {
        let text = Self.lines.joined(separator: "\n") + "\n"
        let path = Fixtures.temporaryFile("export.ndjson", text)
        let reader = ExportReader(target: Fixtures.demo, chunkSize: chunkSize)
        let whole = Self.describe(try reader.readAll(path, format: .restNDJSON))
        #expect(whole.count == 5)
        #expect(whole[2].hasSuffix("export.ndjson:5:15") && whole[3].hasSuffix("export.ndjson:5:74"))
        let size = text.utf8.count
        for cut in 0...size {
            var documents: [ExportedDocument] = []
            for range in [0..<cut, cut..<size] {
                try reader.read(path, format: .restNDJSON, byteRange: range) { documents.append($0) }
            }
            #expect(Self.describe(documents) == whole, "cut at \(cut)")
        }
        for (first, second) in [(10, 11), (95, 96), (96, 240), (1, size - 1)] {
            var documents: [ExportedDocument] = []
            for range in [0..<first, first..<second, second..<size] {
                try reader.read(path, format: .restNDJSON, byteRange: range) { documents.append($0) }
            }
            #expect(Self.describe(documents) == whole, "cuts at \(first), \(second)")
        }
    }

    /// Numbered from each range's start, the lines plus the newlines of the ranges before them
    /// are the whole file's numbers, for every cut.
    @Test(arguments: [2, 4096])
    func rangesNumberedFromTheirStartAddUpToTheFilesNumbers(chunkSize: Int) throws {
        let text = Self.lines.joined(separator: "\n") + "\n"
        let path = Fixtures.temporaryFile("export.ndjson", text)
        let reader = ExportReader(target: Fixtures.demo, chunkSize: chunkSize)
        let whole = Self.describe(try reader.readAll(path, format: .restNDJSON))
        let size = text.utf8.count
        for cut in 1..<size {
            var documents: [ExportedDocument] = []
            try reader.read(path, format: .restNDJSON, byteRange: 0..<cut) { documents.append($0) }
            let before = try reader.newlines(in: path, range: 0..<cut)
            try reader.read(path, format: .restNDJSON, byteRange: cut..<size, lineNumbering: .fromRangeStart) { exported in
                var exported = exported
                exported.location.line += before
                documents.append(exported)
            }
            #expect(Self.describe(documents) == whole, "cut at \(cut)")
        }
    }

    @Test func aBlankFileIsEmptyHoweverItIsCut() throws {
        let path = Fixtures.temporaryFile("export.ndjson", String(repeating: " \n", count: 50))
        let reader = ExportReader(target: Fixtures.demo, chunkSize: 8)
        let error = exportError { try reader.read(path, format: .restNDJSON, byteRange: 0..<40) { _ in } }
        #expect(error?.description.contains("empty") == true, "\(String(describing: error))")
        // A later range holds no record, and that is no error: the file's first range says it.
        try reader.read(path, format: .restNDJSON, byteRange: 40..<100, lineNumbering: .fromRangeStart) { _ in Issue.record("a document") }
        // A first range without a record, in a file with records after it, is no error either.
        let later = Fixtures.temporaryFile("export.ndjson", String(repeating: " \n", count: 50) + Self.lines[0] + "\n")
        try reader.read(later, format: .restNDJSON, byteRange: 0..<40) { _ in Issue.record("a document") }
    }

    @Test func aFileWithoutAFinalNewlineIsReadToItsEnd() throws {
        let text = Self.lines.joined(separator: "\n")
        let path = Fixtures.temporaryFile("export.ndjson", text)
        let reader = ExportReader(target: Fixtures.demo, chunkSize: 5)
        let whole = Self.describe(try reader.readAll(path, format: .restNDJSON))
        var documents: [ExportedDocument] = []
        for range in [0..<200, 200..<text.utf8.count] {
            try reader.read(path, format: .restNDJSON, byteRange: range) { documents.append($0) }
        }
        #expect(Self.describe(documents) == whole)
    }

    @Test func anErrorInARangeNamesItsLineInTheWholeFile() throws {
        let text = Self.lines.joined(separator: "\n") + "\n{\"name\": 5}\n"
        let path = Fixtures.temporaryFile("export.ndjson", text)
        let error = exportError { try ExportReader(target: Fixtures.demo).read(path, format: .restNDJSON, byteRange: 300..<text.utf8.count) { _ in } }
        #expect(error?.description.hasPrefix("\(path):7:1: expected a Firestore REST document") == true, "\(String(describing: error))")
    }

    @Test func onlyLineFormatsReadInRanges() {
        #expect(ExportFormat.allCases.filter(\.readsInRanges) == [.restNDJSON, .firestoreBackfire])
    }

    @Test func aLogGivesBackItsDocumentsAndLocations() throws {
        let documents = [
            ExportedDocument(
                document: Document(
                    path: try ResourcePath(parsing: "c/a"),
                    fields: MapValue([
                        ("n", .integer(-9_007_199_254_740_993)), ("d", .double(-0.0)), ("nan", .double(.nan)), ("b", .bytes([0, 255])),
                        ("r", .reference(ResourceName(database: Fixtures.demo, path: try ResourcePath(parsing: "c/b")))),
                        ("t", .timestamp(try Timestamp(seconds: 1, nanos: 5))), ("é", .string("ü\u{1F600}")),
                    ]),
                    createTime: try Timestamp(seconds: 2, nanos: 0), updateTime: try Timestamp(seconds: 3, nanos: 1)),
                sourceDatabase: Fixtures.demo, location: SourceLocation(file: "exports/a.ndjson", line: 12, column: 3)),
            ExportedDocument(
                document: Document(path: try ResourcePath(parsing: "c/b/d/e"), fields: MapValue()),
                sourceDatabase: Fixtures.demo, location: SourceLocation(file: "export/output-0", byteOffset: 40_000),
                encodedFields: Array(#"{"x":{"stringValue":"y"}}"#.utf8)),
        ]
        var bytes: [UInt8] = []
        for (index, exported) in documents.enumerated() {
            ExportedDocumentLog.append(exported, file: index, to: &bytes)
        }
        let path = Fixtures.temporaryFile("shard.documents", bytes: bytes)
        var source = try ExportedDocumentLog.open(path, files: [.init(path: "exports/a.ndjson"), .init(path: "export/output-0")], database: Fixtures.demo)
        var read: [ExportedDocument] = []
        while let next = try source.next() { read.append(next) }
        #expect(read.map(\.location) == documents.map(\.location))
        #expect(read.map(\.document.path) == documents.map(\.document.path))
        #expect(read.map(\.encodedFields) == documents.map(\.encodedFields))
        for (back, original) in zip(read, documents) {
            var expected = JSONWriter()
            var actual = JSONWriter()
            original.document.encodeRESTJSON(into: &expected, database: Fixtures.demo)
            back.document.encodeRESTJSON(into: &actual, database: Fixtures.demo)
            #expect(actual.bytes == expected.bytes)
        }
        let wrongTable = exportError {
            var source = try ExportedDocumentLog.open(path, files: [.init(path: "only-one")], database: Fixtures.demo)
            while try source.next() != nil {}
        }
        #expect(wrongTable?.description.contains("a record names file 1, not one of the 1 the log lists") == true, "\(String(describing: wrongTable))")
        let cut = Fixtures.temporaryFile("cut.documents", bytes: Array(bytes.dropLast(3)))
        let cutShort = exportError {
            var source = try ExportedDocumentLog.open(cut, files: [.init(path: "a"), .init(path: "b")], database: Fixtures.demo)
            while try source.next() != nil {}
        }
        #expect(cutShort?.description.contains("the last record is cut short") == true, "\(String(describing: cutShort))")
    }
}
