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

    static let otherFamilies: [(file: String, format: ExportFormat, evidence: String)] = [
        ("other/node-firestore-import-export.json", .nodeFirestoreImportExport, "found \"__collections__\""),
        ("other/backup-with-refs-option.json", .firestoreExportImport, "found \"subCollection\""),
        ("other/backup-raw-ref-object.json", .firestoreExportImport, "found \"subCollection\""),
        ("other/import-array-autoid.json", .firestoreExportImport, "found \"subCollection\""),
        ("other/firestore-backfire.ndjson", .firestoreBackfire, "a record with \"path\" and \"data\""),
        ("other/bigquery-raw-changelog.ndjson", .bigQueryChangelog, "a record with \"document_name\" and \"operation\""),
    ]

    @Test(arguments: otherFamilies.indices)
    func otherFamiliesAreNamedAsNotSupportedYet(index: Int) {
        let family = Self.otherFamilies[index]
        let path = Fixtures.path(family.file)
        for error in [detectionError(path), exportError { _ = try reader.readAll(path) }] {
            guard case .unsupportedFormat(let format, _, let location, let evidence)? = error else {
                Issue.record("\(family.file): expected unsupportedFormat, got \(String(describing: error))")
                continue
            }
            #expect(format == family.format)
            #expect(evidence == family.evidence)
            #expect(location != nil)
            let message = error!.description
            #expect(message.contains("looks like \(family.format.displayName)"))
            #expect(message.contains("the \"\(family.format.rawValue)\" format is not supported yet"))
        }
    }

    @Test func markerLocationIsReported() {
        let path = Fixtures.path("other/node-firestore-import-export.json")
        #expect(detectionError(path)?.description.hasPrefix("\(path):2:3: looks like a node-firestore-import-export (jloosli) export (found \"__collections__\"); the \"node-firestore-import-export\" format is not supported yet.") == true)
    }

    @Test func dalenguyenBufferMarker() {
        let path = Fixtures.temporaryFile("backup.json", #"{"cities":{"SF":{"logo":{"type":"Buffer","data":[137,80]}}}}"#)
        guard case .unsupportedFormat(.firestoreExportImport, _, let location, let evidence)? = detectionError(path) else {
            Issue.record("expected firestore-export-import")
            return
        }
        #expect(evidence == "found a Node Buffer {\"type\": \"Buffer\", \"data\": […]}")
        #expect(location?.column == 25)
    }

    @Test func firefoo() {
        let path = Fixtures.temporaryFile("firefoo.json", """
            {"cities": {"SF": {"updated": {"__time__": "2024-05-01T12:34:56.123Z"}, "mayor": {"__ref__": "users/lurie"}}}}
            """)
        let error = detectionError(path)
        guard case .unsupportedFormat(.firefoo, _, _, let evidence)? = error else {
            Issue.record("expected firefoo, got \(String(describing: error))")
            return
        }
        #expect(evidence == "found \"__time__\"")
        #expect(error!.description.contains("unverified"))
    }

    @Test func levelDBExports() throws {
        let directory = (Fixtures.temporaryFile("2024-05-01T00:00:00_1234.overall_export_metadata", bytes: [0x0A, 0x00, 0x12]) as NSString).deletingLastPathComponent
        let output = directory + "/output-0"
        try Data([0x8B, 0x1F, 0x00, 0x01, 0x7B]).write(to: URL(fileURLWithPath: output))
        for path in [directory, output, directory + "/2024-05-01T00:00:00_1234.overall_export_metadata"] {
            let error = detectionError(path)
            guard case .unsupportedFormat(.gcloudExport, let file, nil, _)? = error else {
                Issue.record("\(path): expected gcloud-export, got \(String(describing: error))")
                continue
            }
            #expect(file == path)
            #expect(error!.description.contains("not supported yet"))
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
        let jloosli = Fixtures.path("other/node-firestore-import-export.json")
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
        // A format that cannot be read yet is refused by name.
        let error = exportError { _ = try reader.readAll(one, format: .firestoreBackfire) }
        #expect(error == .unsupportedFormat(.firestoreBackfire, file: one, location: nil, evidence: "chosen with `format: firestore-backfire`"))
    }

    @Test func formatNamesForPipelineConfig() {
        #expect(ExportFormat(rawValue: "rest") == .rest)
        #expect(ExportFormat(rawValue: "rest-ndjson") == .restNDJSON)
        #expect(ExportFormat.allCases.filter(\.isSupported) == [.rest, .restNDJSON])
    }
}
