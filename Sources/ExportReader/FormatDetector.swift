import Foundation
import JSONCore

/// Finds the format of an export file (research notes §1.f).
///
/// It sniffs the first non-blank line: when that line is a complete JSON value and more
/// values follow on later lines, the file is NDJSON and its first record is classified.
/// Otherwise the file is parsed whole and its value (or its first array element) classified.
/// Families that cannot be read yet are recognised and reported by name.
struct FormatDetector {
    /// What detection found: the format, and for a single JSON value the parsed file (so it
    /// is not parsed twice).
    enum Detection {
        case ndjson(ExportFormat)
        case singleValue(ExportFormat, ParsedFile)
        /// A managed or emulator export folder, or one of its metadata files.
        case exportFolder

        var format: ExportFormat {
            switch self {
            case .ndjson(let format), .singleValue(let format, _): return format
            case .exportFolder: return .managedExport
            }
        }
    }

    let chunkSize: Int

    /// The format of an NDJSON file (its first line a whole JSON value, and more lines after
    /// it); nil for any other file, which is not parsed whole.
    func detectLineFormat(_ path: String) throws(ExportError) -> ExportFormat? {
        if ExportFolder.recognizes(path) { return nil }
        let lines = LineReader(file: try InputFile(path: path), chunkSize: chunkSize)
        guard let first = try lines.next(), let record = try? JSONParser.parse(first.bytes), try lines.next() != nil else { return nil }
        let locate = { (offset: Int) in SourceMap(file: path, bytes: first.bytes, firstLine: first.number).location(ofOffset: offset) }
        return try Self.classify(record, file: path, lineDelimited: true, locate: locate)
    }

    func detect(_ path: String) throws(ExportError) -> Detection {
        if ExportFolder.recognizes(path) { return .exportFolder }
        try rejectExportDataFiles(path)
        let file = try InputFile(path: path)
        let lines = LineReader(file: file, chunkSize: chunkSize)
        guard let first = try lines.next() else { throw .empty(file: path) }
        let locate = { (offset: Int) in SourceMap(file: path, bytes: first.bytes, firstLine: first.number).location(ofOffset: offset) }
        if let start = first.bytes.first(where: { !JSONWhitespace.contains($0) }),
           start != UInt8(ascii: "{"), start != UInt8(ascii: "["), first.bytes.contains(0) || String(validating: first.bytes, as: UTF8.self) == nil {
            throw .unrecognizedFormat(locate(0), found: "binary data, not JSON text (a compressed file, or a data file of a managed or emulator export? Name the export's folder)")
        }
        if let record = try? JSONParser.parse(first.bytes), try lines.next() != nil {
            return .ndjson(try Self.classify(record, file: path, lineDelimited: true, locate: locate))
        }
        let parsed = try ParsedFile.read(try InputFile(path: path))
        return .singleValue(try Self.classify(parsed.root, file: path, lineDelimited: false, locate: parsed.sourceMap.location(ofOffset:)), parsed)
    }

    /// The format of `node`: an NDJSON record (`lineDelimited`) or a whole single-value file
    /// (then a single record of an NDJSON format is a one-line file of it). Throws the error
    /// naming an unsupported, ambiguous or unknown format.
    static func classify(_ node: JSONNode, file: String, lineDelimited: Bool, locate: (Int) -> SourceLocation) throws(ExportError) -> ExportFormat {
        var record = node
        if let elements = node.arrayValue {
            guard let first = elements.first else { return lineDelimited ? .restNDJSON : .rest }  // `[]`: an export of no documents
            record = first
        }
        guard let object = record.objectValue else {
            throw .unrecognizedFormat(locate(record.offset), found: record.kindDescription)
        }
        if RESTRecordKind(object) != nil { return lineDelimited ? .restNDJSON : .rest }
        let format = try family(of: object, at: record.offset, in: node, file: file, locate: locate)
        if format.isLineDelimited, node.arrayValue != nil {
            throw .unrecognizedFormat(locate(node.offset), found: "a JSON array of records of \(format.displayName); it has one record per line, without brackets")
        }
        if !format.isLineDelimited, lineDelimited || node.objectValue == nil {
            throw .unrecognizedFormat(locate(record.offset), found: "\(lineDelimited ? "one JSON value per line" : "an array") in the layout of \(format.displayName), which is one JSON object per file")
        }
        return format
    }

    /// The non-REST family of `record` (at `offset`, the first record of `node`).
    private static func family(of record: JSONObject, at offset: Int, in node: JSONNode, file: String, locate: (Int) -> SourceLocation) throws(ExportError) -> ExportFormat {
        if record["document_name"] != nil, record["operation"] != nil {
            return .bigQueryChangelog
        }
        if record["path"]?.stringValue != nil, record["data"] != nil {
            return .firestoreBackfire
        }
        let candidates = FormatMarkers(scanning: node).candidates
        if candidates.count > 1 {
            let evidence = candidates.map { hit in
                let location = locate(hit.offset)
                return "\(hit.evidence) at \(location.line):\(location.column)"
            }
            throw .ambiguousFormat(candidates: candidates.map(\.format), location: locate(offset), evidence: evidence.joined(separator: " and "))
        }
        if let hit = candidates.first {
            guard hit.format.isSupported else {
                throw .unsupportedFormat(hit.format, file: file, location: locate(hit.offset), evidence: hit.evidence)
            }
            return hit.format
        }
        if isBareCollectionTree(record) {
            throw .ambiguousFormat(
                candidates: [.firestoreExportImport, .firefoo],
                location: locate(offset),
                evidence: "collections of documents keyed by ID, without type markers"
            )
        }
        throw .unrecognizedFormat(locate(offset), found: RESTRecordDecoder.describeKeys(of: record))
    }

    /// `{collection: {id: {…}}}` (or `{collection: [{…}]}`) with nothing else to go by.
    private static func isBareCollectionTree(_ object: JSONObject) -> Bool {
        !object.isEmpty && object.members.allSatisfy { collection in
            let documents = collection.value.objectValue?.members.map(\.value) ?? collection.value.arrayValue ?? []
            return !documents.isEmpty && documents.allSatisfy { $0.objectValue != nil }
        }
    }

    /// The data and kind metadata files of an export are read through the export's folder, so
    /// that no `output-N` file is left out.
    private func rejectExportDataFiles(_ path: String) throws(ExportError) {
        let name = (path as NSString).lastPathComponent
        let isOutputLog = name.hasPrefix("output-") && name.dropFirst(7).allSatisfy(\.isNumber) && name.count > 7
        if name.hasSuffix(".export_metadata") || isOutputLog {
            throw .invalidExportFolder(
                path: path,
                message: "a file of a managed or emulator export; name the export's folder (or its overall_export_metadata or firebase-export-metadata.json file) so every output-N file is read")
        }
    }
}
