import FirestoreModel
import JSONCore
import ParallelWork

/// Reads Firestore REST NDJSON: one record per line, each line parsed on its own while the
/// file streams through a ``LineReader``.
///
/// Lines are independent, so each batch of lines (the complete lines of one read) is parsed and
/// decoded on every core, then handed out in file order: the documents, and the first error,
/// are exactly those a line-by-line reader would give.
struct NDJSONDocumentSource: ExportDocumentSource {
    /// Lines per batch: about one 4 MiB read of typical documents.
    private static let batchLimit = 4096

    private let lines: LineReader
    private let decoder: RESTRecordDecoder
    private let path: String
    private let threads: Int
    /// Documents of the current batch not handed out yet, and the error that ended the batch.
    private var pending: [ExportedDocument] = []
    private var pendingIndex = 0
    private var pendingError: ExportError?
    private var sawRecord = false

    init(file: InputFile, target: DatabaseID, chunkSize: Int, threads: Int = Processors.online) {
        lines = LineReader(file: file, chunkSize: chunkSize)
        decoder = RESTRecordDecoder(target: target)
        path = file.path
        self.threads = threads
    }

    mutating func next() throws(ExportError) -> ExportedDocument? {
        while pendingIndex == pending.count {
            if let error = pendingError { throw error }
            let batch = try lines.nextBatch(limit: Self.batchLimit)
            guard !batch.isEmpty else {
                if !sawRecord { throw .empty(file: path) }
                return nil
            }
            sawRecord = true
            decode(batch)
        }
        defer { pendingIndex += 1 }
        return pending[pendingIndex]
    }

    /// Decodes `batch` in contiguous slices, one per thread, and joins the results in order up
    /// to the first failing line.
    private mutating func decode(_ batch: [Line]) {
        let shared = SharedLines(lines: batch)
        let (decoder, path) = (self.decoder, self.path)
        let count = batch.count
        let slices = max(1, min(threads, count / 64))
        let results = parallelMap(count: slices, threads: slices) { slice in
            let range = (count * slice / slices)..<(count * (slice + 1) / slices)
            var documents: [ExportedDocument] = []
            for index in range {
                do throws(ExportError) {
                    try Self.decode(shared.lines[index], path: path, decoder: decoder, into: &documents)
                } catch {
                    return SliceResult(documents: documents, error: error)
                }
            }
            return SliceResult(documents: documents, error: nil)
        }
        pending.removeAll(keepingCapacity: true)
        pendingIndex = 0
        for result in results {
            pending.append(contentsOf: result.documents)
            if let error = result.error {
                pendingError = error
                break
            }
        }
    }

    private static func decode(_ line: Line, path: String, decoder: RESTRecordDecoder, into documents: inout [ExportedDocument]) throws(ExportError) {
        let locate = { (offset: Int) in
            SourceMap(file: path, bytes: line.bytes, firstLine: line.number).location(ofOffset: offset)
        }
        let record: JSONNode
        do {
            record = try JSONParser.parse(line.bytes)
        } catch {
            throw .syntax(locate(error.offset), message: error.message)
        }
        try decoder.decode(record, locate: locate) { document, source, offset in
            // Most records start the line; only then is the column known without a scan.
            let location = offset == 0 ? SourceLocation(file: path, line: line.number, column: 1) : locate(offset)
            documents.append(ExportedDocument(document: document, sourceDatabase: source, location: location))
        }
    }
}

/// The documents one slice of a batch decoded, and the error that stopped it, if any.
private struct SliceResult: Sendable {
    var documents: [ExportedDocument]
    var error: ExportError?
}

/// A batch of lines shared by the decoding threads: the lines point into the reader's buffer,
/// which stays untouched (and is only read) until every thread is done.
private struct SharedLines: @unchecked Sendable {
    let lines: [Line]
}
