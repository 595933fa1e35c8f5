import ExportReader
import Foundation
import JSONCore
import Testing

@Suite("Format detection")
struct DetectionTests {
    let reader = ExportReader(target: Fixtures.demo)

    func detectionError(_ path: String) -> ExportError? {
        exportError { _ = try reader.detectFormat(of: path) }
    }

    /// Every sample of the lossy formats, and the format detection must pick.
    static let samples: [(file: String, format: ExportFormat)] = [
        ("node-firestore-import-export/full-export.json", .nodeFirestoreImportExport),
        ("firestore-export-import/backup-with-refs-option.json", .firestoreExportImport),
        ("firestore-export-import/backup-raw-ref-object.json", .firestoreExportImport),
        ("firestore-export-import/import-array-autoid.json", .firestoreExportImport),
        ("firestore-backfire/export.ndjson", .firestoreBackfire),
        ("bigquery-export/raw_changelog.ndjson", .bigQueryChangelog),
    ]

    @Test(arguments: samples.indices)
    func detectionPicksEachFormat(index: Int) throws {
        let sample = Self.samples[index]
        #expect(try reader.detectFormat(of: Fixtures.path(sample.file)) == sample.format)
    }

    @Test(arguments: [1, 7, ExportReader.defaultChunkSize])
    func oneLineFilesOfTheNDJSONFormats(chunkSize: Int) throws {
        let reader = ExportReader(target: Fixtures.demo, chunkSize: chunkSize)
        for sample in Self.samples where sample.file.hasSuffix(".ndjson") {
            let firstLine = try String(contentsOfFile: Fixtures.path(sample.file), encoding: .utf8).split(separator: "\n")[0]
            let path = Fixtures.temporaryFile("one.ndjson", firstLine + "\n")
            #expect(try reader.detectFormat(of: path) == sample.format)
            #expect(try reader.readAll(path).count == 1)
        }
    }

    @Test func ndjsonRecordsInAnArrayAreNotTheirFormat() {
        let path = Fixtures.temporaryFile("backfire.json", #"[{"path":"users/lurie","data":{"name":"Daniel Lurie"}}]"#)
        #expect(detectionError(path) == .unrecognizedFormat(
            SourceLocation(file: path, line: 1, column: 1),
            found: "a JSON array of records of a firestore-backfire NDJSON export; it has one record per line, without brackets"))
    }

    @Test func treeFormatsAreOneValuePerFile() {
        let path = Fixtures.temporaryFile("tree.ndjson", #"{"__collections__":{}}"# + "\n" + #"{"__collections__":{}}"# + "\n")
        #expect(detectionError(path) == .unrecognizedFormat(
            SourceLocation(file: path, line: 1, column: 1),
            found: "one JSON value per line in the layout of a node-firestore-import-export (jloosli) export, which is one JSON object per file"))
    }

    @Test func strongMarkersOfTwoFamiliesAreAmbiguous() {
        let path = Fixtures.temporaryFile("mixed.json", """
            {"__collections__": {"cities": {"SF": {
              "subCollection": {"cities/SF/landmarks": {}}}}}}
            """)
        let error = detectionError(path)
        #expect(error == .ambiguousFormat(
            candidates: [.nodeFirestoreImportExport, .firestoreExportImport],
            location: SourceLocation(file: path, line: 1, column: 1),
            evidence: "found \"__collections__\" at 1:2 and found \"subCollection\" at 2:3"))
        #expect(error?.description.contains("set `format:` to choose") == true)
    }

    @Test func tagValuesDoNotMakeAJlooseExportAmbiguous() throws {
        // `{"_seconds", "_nanoseconds"}` inside a jloosli timestamp tag is a weak dalenguyen marker.
        let path = Fixtures.temporaryFile("tagged.json", """
            {"cities": {"SF": {"updated": {"__datatype__": "timestamp", "value": {"_seconds": 1, "_nanoseconds": 0}}}}}
            """)
        #expect(try reader.detectFormat(of: path) == .nodeFirestoreImportExport)
    }

    @Test func dalenguyenBufferMarker() throws {
        let path = Fixtures.temporaryFile("backup.json", #"{"cities":{"SF":{"logo":{"type":"Buffer","data":[137,80]}}}}"#)
        #expect(try reader.detectFormat(of: path) == .firestoreExportImport)
        #expect(try reader.readAll(path).first?.document.fields["logo"] == .bytes([137, 80]))
    }

    @Test func firefoo() {
        let path = Fixtures.temporaryFile("firefoo.json", """
            {"cities": {"SF": {"updated": {"__time__": "2024-05-01T12:34:56.123Z"}, "mayor": {"__ref__": "users/lurie"}}}}
            """)
        let error = detectionError(path)
        guard case .unsupportedFormat(.firefoo, _, let location, let evidence)? = error else {
            Issue.record("expected firefoo, got \(String(describing: error))")
            return
        }
        #expect(evidence == "found \"__time__\"")
        #expect(location == SourceLocation(file: path, line: 1, column: 32))
        #expect(error!.description.contains("unverified"))
    }

    @Test func exportDataFilesAreReadThroughTheirFolder() throws {
        let directory = (Fixtures.temporaryFile("all_namespaces_all_kinds.export_metadata", bytes: [0x0A, 0x00]) as NSString).deletingLastPathComponent
        let output = directory + "/output-0"
        try Data([0x8B, 0x1F, 0x00, 0x01, 0x7B]).write(to: URL(fileURLWithPath: output))
        for path in [output, directory + "/all_namespaces_all_kinds.export_metadata"] {
            let error = detectionError(path)
            guard case .invalidExportFolder(let file, let message)? = error else {
                Issue.record("\(path): expected invalidExportFolder, got \(String(describing: error))")
                continue
            }
            #expect(file == path)
            #expect(message.contains("name the export's folder"))
        }
    }

    @Test func binaryFile() {
        let path = Fixtures.temporaryFile("export.json.gz", bytes: [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x0A])
        guard case .unrecognizedFormat(let location, let found)? = detectionError(path) else {
            Issue.record("expected unrecognizedFormat")
            return
        }
        #expect(location == SourceLocation(file: path, line: 1, column: 1))
        #expect(found.hasPrefix("binary data, not JSON text"))
    }

    @Test func bareCollectionTreeIsAmbiguous() {
        let path = Fixtures.temporaryFile("backup.json", "{\n  \"users\": {\"lurie\": {\"name\": \"Daniel Lurie\"}}\n}\n")
        let error = detectionError(path)
        #expect(error == .ambiguousFormat(
            candidates: [.firestoreExportImport, .firefoo],
            location: SourceLocation(file: path, line: 1, column: 1),
            evidence: "collections of documents keyed by ID, without type markers"
        ))
        #expect(error?.description.contains("firestore-export-import (dalenguyen)") == true)
        #expect(error?.description.contains("Firefoo") == true)
    }

    @Test func unknownJSON() {
        let path = Fixtures.temporaryFile("x.ndjson", "{\"id\":1}\n{\"id\":2}\n")
        #expect(detectionError(path) == .unrecognizedFormat(SourceLocation(file: path, line: 1, column: 1), found: "an object with keys \"id\""))
        let scalar = Fixtures.temporaryFile("x.json", "\n  \"hello\"\n")
        #expect(detectionError(scalar) == .unrecognizedFormat(SourceLocation(file: scalar, line: 2, column: 3), found: "a string"))
    }

    @Test func formatOverrideSkipsDetection() throws {
        // A jloosli file read as REST fails as a REST record, not as an unsupported format.
        let jloosli = Fixtures.path("node-firestore-import-export/full-export.json")
        guard case .notADocument? = exportError({ _ = try reader.readAll(jloosli, format: .rest) }) else {
            Issue.record("expected notADocument")
            return
        }
        // A pretty-printed REST file forced to NDJSON is read line by line.
        let list = Fixtures.path("rest/documents-list-response.json")
        #expect(exportError { _ = try reader.readAll(list, format: .restNDJSON) }
            == .syntax(SourceLocation(file: list, line: 1, column: 2), message: "unexpected end of input; expected a string key in an object"))
        // A one-line file is a single value to detection, and NDJSON when asked.
        let one = Fixtures.temporaryFile("one.ndjson", Fixtures.canonicalLines[1] + "\n")
        expectCanonical(try reader.readAll(one, format: .restNDJSON), count: 1)
        // A REST record read as backfire is not a backfire record.
        #expect(exportError { _ = try reader.readAll(one, format: .firestoreBackfire) }?.description
            == "\(one):1:1: expected a firestore-backfire record {\"path\", \"data\", …}, found an object with keys \"name\", \"fields\", \"createTime\", \"updateTime\"")
        // A format that cannot be read yet is refused by name.
        let error = exportError { _ = try reader.readAll(one, format: .firefoo) }
        #expect(error == .unsupportedFormat(.firefoo, file: one, location: nil, evidence: "chosen with `format: firefoo`"))
    }

    @Test func formatNamesForPipelineConfig() {
        #expect(ExportFormat(rawValue: "rest") == .rest)
        #expect(ExportFormat(rawValue: "rest-ndjson") == .restNDJSON)
        #expect(ExportFormat(rawValue: "bigquery-changelog") == .bigQueryChangelog)
        #expect(ExportFormat(rawValue: "managed-export") == .managedExport)
        #expect(ExportFormat.allCases.filter { !$0.isSupported } == [.firefoo])
        #expect(ExportFormat.allCases.filter(\.carriesTypes) == [.rest, .restNDJSON, .managedExport])
    }
}
