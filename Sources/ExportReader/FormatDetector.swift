import Foundation
import JSONCore

/// Finds the format of an export file (research notes §1.f).
///
/// It sniffs the first non-blank line: when that line is a complete JSON value and more
/// values follow on later lines, the file is NDJSON and its first record is classified.
/// Otherwise the file is parsed whole and its value (or its first array element) classified.
/// Families that cannot be read yet are recognised and reported by name.
struct FormatDetector {
    /// What detection found: NDJSON, or a single JSON value already parsed (so it is not
    /// parsed twice).
    enum Detection {
        case ndjson
        case singleValue(ParsedFile)
    }

    let chunkSize: Int

    func detect(_ path: String) throws(ExportError) -> Detection {
        try rejectLevelDBNames(path)
        let file: InputFile
        do {
            file = try InputFile(path: path)
        } catch .isDirectory(let file) {
            throw try Self.directoryError(file)
        }
        let lines = LineReader(file: file, chunkSize: chunkSize)
        guard let first = try lines.next() else { throw .empty(file: path) }
        let locate = { (offset: Int) in SourceMap(file: path, bytes: first.bytes, firstLine: first.number).location(ofOffset: offset) }
        if let start = first.bytes.first(where: { !JSONWhitespace.contains($0) }),
           start != UInt8(ascii: "{"), start != UInt8(ascii: "["), first.bytes.contains(0) || String(validating: first.bytes, as: UTF8.self) == nil {
            throw .unrecognizedFormat(locate(0), found: "binary data, not JSON text (a compressed file, or a LevelDB file of a gcloud/emulator export?)")
        }
        if let record = try? JSONParser.parse(first.bytes), try lines.next() != nil {
            try Self.classify(record, file: path, formatIfREST: .restNDJSON, locate: locate)
            return .ndjson
        }
        let parsed = try ParsedFile.read(try InputFile(path: path))
        try Self.classify(parsed.root, file: path, formatIfREST: .rest, locate: parsed.sourceMap.location(ofOffset:))
        return .singleValue(parsed)
    }

    /// Checks that `node` (an NDJSON record or a whole single-value file) is REST; otherwise
    /// throws the error naming the family it looks like.
    static func classify(_ node: JSONNode, file: String, formatIfREST: ExportFormat, locate: (Int) -> SourceLocation) throws(ExportError) {
        var record = node
        if let elements = node.arrayValue {
            guard let first = elements.first else { return }  // `[]`: an export of no documents
            record = first
        }
        guard let object = record.objectValue else {
            throw .unrecognizedFormat(locate(record.offset), found: record.kindDescription)
        }
        if RESTRecordKind(object) != nil { return }
        func unsupported(_ format: ExportFormat, _ evidence: String, at offset: Int) -> ExportError {
            .unsupportedFormat(format, file: file, location: locate(offset), evidence: evidence)
        }
        if object["document_name"] != nil, object["operation"] != nil {
            throw unsupported(.bigQueryChangelog, "a record with \"document_name\" and \"operation\"", at: record.offset)
        }
        if object["path"]?.stringValue != nil, object["data"] != nil {
            throw unsupported(.firestoreBackfire, "a record with \"path\" and \"data\"", at: record.offset)
        }
        if let hit = FormatMarkers(scanning: node).strongest {
            throw unsupported(hit.format, hit.evidence, at: hit.offset)
        }
        if isBareCollectionTree(object) {
            throw .ambiguousFormat(
                candidates: [.firestoreExportImport, .firefoo],
                location: locate(record.offset),
                evidence: "collections of documents keyed by ID, without type markers"
            )
        }
        throw .unrecognizedFormat(locate(record.offset), found: RESTRecordDecoder.describeKeys(of: object))
    }

    /// `{collection: {id: {…}}}` (or `{collection: [{…}]}`) with nothing else to go by.
    private static func isBareCollectionTree(_ object: JSONObject) -> Bool {
        !object.isEmpty && object.members.allSatisfy { collection in
            let documents = collection.value.objectValue?.members.map(\.value) ?? collection.value.arrayValue ?? []
            return !documents.isEmpty && documents.allSatisfy { $0.objectValue != nil }
        }
    }

    /// `gcloud firestore export` writes `*.export_metadata` files and `output-N` LevelDB logs.
    private func rejectLevelDBNames(_ path: String) throws(ExportError) {
        let name = (path as NSString).lastPathComponent
        let isOutputLog = name.hasPrefix("output-") && name.dropFirst(7).allSatisfy(\.isNumber) && name.count > 7
        if name.hasSuffix("export_metadata") || isOutputLog {
            throw .unsupportedFormat(.gcloudExport, file: path, location: nil, evidence: "a file named \"\(name)\"")
        }
    }

    /// A directory is an error; one holding a LevelDB export says so.
    private static func directoryError(_ path: String) throws(ExportError) -> ExportError {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        if let marker = entries.first(where: { $0.hasSuffix("export_metadata") || $0 == "all_namespaces" || $0 == "firestore_export" }) {
            return .unsupportedFormat(.gcloudExport, file: path, location: nil, evidence: "a directory containing \"\(marker)\"")
        }
        return .isDirectory(file: path)
    }
}
