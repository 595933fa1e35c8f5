import FirestoreModel
import JSONCore

/// Reads a Firestore REST export that is one JSON value: a record, or an array of records.
///
/// The whole file is in memory (bytes and parsed tree), as a single JSON value cannot be
/// streamed record by record; large exports should use NDJSON.
struct SingleValueDocumentSource: ExportDocumentSource {
    private let records: [JSONNode]
    private let sourceMap: SourceMap
    private let decoder: RESTRecordDecoder
    private var recordIndex = 0
    private var pending: [ExportedDocument] = []
    private var pendingIndex = 0
    /// The last location computed, so locations are found walking forward once.
    private var anchor: (offset: Int, location: SourceLocation)

    /// - Parameters:
    ///   - root: the parsed file; an array is a list of records, anything else one record.
    ///   - sourceMap: the map of the bytes `root` was parsed from.
    init(root: JSONNode, sourceMap: SourceMap, target: DatabaseID) {
        records = root.arrayValue ?? [root]
        self.sourceMap = sourceMap
        decoder = RESTRecordDecoder(target: target)
        anchor = (0, SourceLocation(file: sourceMap.file, line: sourceMap.firstLine, column: 1))
    }

    mutating func next() throws(ExportError) -> ExportedDocument? {
        while pendingIndex == pending.count {
            guard recordIndex < records.count else { return nil }
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            let record = records[recordIndex]
            recordIndex += 1
            try decode(record)
        }
        defer { pendingIndex += 1 }
        return pending[pendingIndex]
    }

    private mutating func decode(_ record: JSONNode) throws(ExportError) {
        let sourceMap = self.sourceMap
        var documents = pending
        var anchor = self.anchor
        pending = []
        try decoder.decode(record, locate: { sourceMap.location(ofOffset: $0) }) { document, source, offset in
            anchor = (offset, sourceMap.location(ofOffset: offset, after: anchor))
            documents.append(ExportedDocument(document: document, sourceDatabase: source, location: anchor.location))
        }
        self.anchor = anchor
        pending = documents
    }
}
