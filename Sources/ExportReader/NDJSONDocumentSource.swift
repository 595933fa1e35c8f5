import FirestoreModel
import JSONCore

/// Reads Firestore REST NDJSON: one record per line, each line parsed on its own while the
/// file streams through a ``LineReader``.
struct NDJSONDocumentSource: ExportDocumentSource {
    private let lines: LineReader
    private let decoder: RESTRecordDecoder
    private let path: String
    /// Documents of the current line not handed out yet (a list page line holds several).
    private var pending: [ExportedDocument] = []
    private var pendingIndex = 0
    private var sawRecord = false

    init(file: InputFile, target: DatabaseID, chunkSize: Int) {
        lines = LineReader(file: file, chunkSize: chunkSize)
        decoder = RESTRecordDecoder(target: target)
        path = file.path
    }

    mutating func next() throws(ExportError) -> ExportedDocument? {
        while pendingIndex == pending.count {
            guard let line = try lines.next() else {
                if !sawRecord { throw .empty(file: path) }
                return nil
            }
            sawRecord = true
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            try decode(line)
        }
        defer { pendingIndex += 1 }
        return pending[pendingIndex]
    }

    private mutating func decode(_ line: Line) throws(ExportError) {
        let path = self.path
        let locate = { (offset: Int) in
            SourceMap(file: path, bytes: line.bytes, firstLine: line.number).location(ofOffset: offset)
        }
        let record: JSONNode
        do {
            record = try JSONParser.parse(line.bytes)
        } catch {
            throw .syntax(locate(error.offset), message: error.message)
        }
        var documents = pending
        pending = []
        try decoder.decode(record, locate: locate) { document, source, offset in
            // Most records start the line; only then is the column known without a scan.
            let location = offset == 0 ? SourceLocation(file: path, line: line.number, column: 1) : locate(offset)
            documents.append(ExportedDocument(document: document, sourceDatabase: source, location: location))
        }
        pending = documents
    }
}
