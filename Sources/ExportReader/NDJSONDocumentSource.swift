import FirestoreModel
import JSONCore

/// Turns one record (line) of an NDJSON export into the documents it holds.
protocol NDJSONRecordDecoder: Sendable {
    /// Calls `body` with each document of `record`, the database its name named, and the
    /// offset of its JSON object. `locate` turns offsets into locations (for errors).
    func decode(
        _ record: JSONNode,
        locate: (Int) -> SourceLocation,
        _ body: (Document, DatabaseID, Int) -> Void
    ) throws(ExportError)
}

/// Reads an NDJSON export whose lines each hold documents (REST records, firestore-backfire
/// records), one line at a time.
struct NDJSONDocumentSource<Decoder: NDJSONRecordDecoder>: ExportDocumentSource {
    private var records: NDJSONRecords
    private let decoder: Decoder
    /// Documents of the current line not handed out yet (a list page line holds several).
    private var pending: [ExportedDocument] = []
    private var pendingIndex = 0

    init(file: InputFile, decoder: Decoder, chunkSize: Int) {
        records = NDJSONRecords(file: file, chunkSize: chunkSize)
        self.decoder = decoder
    }

    mutating func next() throws(ExportError) -> ExportedDocument? {
        while pendingIndex == pending.count {
            var documents = pending
            documents.removeAll(keepingCapacity: true)
            pending = []
            pendingIndex = 0
            let (decoder, path) = (self.decoder, records.path)
            let more = try records.next { record, locate, line throws(ExportError) in
                try decoder.decode(record, locate: locate) { document, source, offset in
                    // Most records start the line; only then is the column known without a scan.
                    let location = offset == 0 ? SourceLocation(file: path, line: line, column: 1) : locate(offset)
                    documents.append(ExportedDocument(document: document, sourceDatabase: source, location: location))
                }
            }
            guard more else { return nil }
            pending = documents
        }
        defer { pendingIndex += 1 }
        return pending[pendingIndex]
    }
}
