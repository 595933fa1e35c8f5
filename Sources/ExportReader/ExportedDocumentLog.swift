import FirestoreModel
import JSONCore

/// A lossless file of exported documents with where each was read, one per line: what a map
/// task of a sharded build hands to the merge.
///
/// Each line is `[file, line, column, byteOffset, document]`: the index of the file in a table
/// the log's reader is given, the document's location in it (`byteOffset` null in a text
/// file), and the document as a Firestore REST `Document` with full resource names. Reading it
/// back gives the same documents and locations the export gave, in the same order, decoded on
/// every core like any NDJSON export.
public enum ExportedDocumentLog {
    /// Writes `exported`, read from the file at index `file` of the log's table, as one line.
    public static func append(_ exported: ExportedDocument, file: Int, database: DatabaseID, to writer: inout JSONWriter) {
        let location = exported.location
        writer.byte(UInt8(ascii: "["))
        writer.integer(file)
        writer.byte(UInt8(ascii: ","))
        writer.integer(location.line)
        writer.byte(UInt8(ascii: ","))
        writer.integer(location.column)
        writer.byte(UInt8(ascii: ","))
        if let offset = location.byteOffset { writer.integer(offset) } else { writer.raw("null") }
        writer.byte(UInt8(ascii: ","))
        exported.document.encodeRESTJSON(into: &writer, database: database)
        writer.raw("]\n")
    }

    /// Opens the log at `path`, whose lines name files by their index in `files`.
    public static func open(_ path: String, files: [String], target: DatabaseID, chunkSize: Int = ExportReader.defaultChunkSize) throws(ExportError) -> any ExportDocumentSource {
        NDJSONDocumentSource(file: try InputFile(path: path), decoder: LogRecordDecoder(files: files, target: target), chunkSize: chunkSize)
    }
}

/// Reads one line of an ``ExportedDocumentLog``.
private struct LogRecordDecoder: NDJSONRecordDecoder {
    let files: [String]
    let target: DatabaseID

    func decode(_ record: JSONNode, line: RecordLine, locate: (Int) -> SourceLocation, _ body: (ExportedDocument) -> Void) throws(ExportError) {
        guard let items = record.arrayValue, items.count == 5,
            let file = Self.integer(items[0]), files.indices.contains(file), let lineNumber = Self.integer(items[1]), let column = Self.integer(items[2])
        else {
            throw .invalidDocument(locate(record.offset), message: "expected [file, line, column, byteOffset, document] with a file index below \(files.count)")
        }
        var location = SourceLocation(file: files[file], line: lineNumber, column: column)
        if let offset = Self.integer(items[3]) {
            location = SourceLocation(file: files[file], byteOffset: offset)
        }
        do {
            let (source, document) = try Document.decodeREST(items[4], relativeTo: target)
            body(ExportedDocument(document: document, sourceDatabase: source, location: location))
        } catch {
            throw .invalidDocument(locate(error.offset), message: error.message)
        }
    }

    private static func integer(_ node: JSONNode) -> Int? {
        node.numberValue?.int64Value.flatMap(Int.init(exactly:))
    }
}
