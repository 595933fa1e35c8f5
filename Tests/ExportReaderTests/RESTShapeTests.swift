import ExportReader
import FirestoreModel
import JSONCore
import Testing

@Suite("REST shapes")
struct RESTShapeTests {
    let reader = ExportReader(target: Fixtures.demo)

    @Test func canonicalFileHoldsTheSampleDataset() throws {
        let documents = try reader.readAll(Fixtures.path("canonical/rest-documents.ndjson"))
        #expect(documents.map(\.document.path.description) == ["cities/LA", "cities/SF", "cities/SF/landmarks/gg", "users/lurie"])
        #expect(documents.map(\.location.line) == [1, 2, 3, 4])
        #expect(documents.allSatisfy { $0.location.column == 1 && $0.sourceDatabase == Fixtures.demo })
        let sf = documents[1].document.fields
        #expect(sf["big"] == .integer(9_007_199_254_740_993))
        if case .integer(let big)? = sf["big"] { #expect(big == 9_007_199_254_740_993) }
        #expect(sf["density"] == .double(7.0))
        #expect(sf["stats"].flatMap { if case .map(let m) = $0 { m["ratio"] } else { nil } }?.isNaN == true)
        #expect(sf["logo"] == .bytes([0x89, 0x50, 0x4E, 0x47]))
        #expect(sf["mayor"] == .reference(ResourceName(database: Fixtures.demo, path: ResourcePath(segments: ["users", "lurie"]))))
        #expect(sf["note"] == .null)
        #expect(documents[1].document.updateTime?.rfc3339 != nil)
    }

    @Test func documentsListPage() throws {
        let path = Fixtures.path("rest/documents-list-response.json")
        #expect(try reader.detectFormat(of: path) == .rest)
        let documents = try reader.readAll(path)
        expectCanonical(documents, count: 2)
        #expect(documents.map(\.location) == [
            SourceLocation(file: path, line: 3, column: 3),
            SourceLocation(file: path, line: 37, column: 3),
        ])
    }

    @Test func runQueryResponseSkipsElementsWithoutDocument() throws {
        let path = Fixtures.path("rest/runquery-response.json")
        #expect(try reader.detectFormat(of: path) == .rest)
        let documents = try reader.readAll(path)
        expectCanonical(documents, count: 2)
        #expect(documents.map(\.document.id) == ["LA", "SF"])
    }

    @Test func batchGetResponseSkipsMissing() throws {
        let path = Fixtures.path("rest/batchget-response.json")
        #expect(try reader.detectFormat(of: path) == .rest)
        let documents = try reader.readAll(path)
        expectCanonical(documents, count: 1)
        #expect(documents.first?.document.path.description == "users/lurie")
    }

    @Test func singleDocument() throws {
        // Pretty-printed over several lines, so it is one JSON value, not NDJSON.
        let pretty = Fixtures.canonicalLines[1].replacingOccurrences(of: ",\"", with: ",\n  \"")
        let path = Fixtures.temporaryFile("sf.json", "\n" + pretty + "\n")
        #expect(try reader.detectFormat(of: path) == .rest)
        let documents = try reader.readAll(path)
        expectCanonical(documents, count: 1)
        #expect(documents.first?.location.line == 2)
    }

    @Test func singleDocumentOnOneLine() throws {
        let path = Fixtures.temporaryFile("sf.json", Fixtures.canonicalLines[1] + "\n")
        #expect(try reader.detectFormat(of: path) == .rest)
        expectCanonical(try reader.readAll(path), count: 1)
    }

    @Test func arrayOfDocuments() throws {
        let path = Fixtures.temporaryFile("all.json", "[\n" + Fixtures.canonicalLines.joined(separator: ",\n") + "\n]\n")
        #expect(try reader.detectFormat(of: path) == .rest)
        let documents = try reader.readAll(path)
        expectCanonical(documents, count: 4)
        #expect(documents.map(\.location.line) == [2, 3, 4, 5])
    }

    @Test func emptyArrayIsAnExportOfNoDocuments() throws {
        let path = Fixtures.temporaryFile("none.json", "[]\n")
        #expect(try reader.readAll(path).isEmpty)
    }

    @Test func streamingCallbackSeesDocumentsInFileOrder() throws {
        var ids: [String] = []
        try reader.read(Fixtures.path("canonical/rest-documents.ndjson")) { ids.append($0.document.id) }
        #expect(ids == ["LA", "SF", "gg", "lurie"])
    }
}
