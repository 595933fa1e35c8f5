import FirestoreModel
import JSONCore
import ParallelWork

/// Turns one record (line) of an NDJSON export into the documents it holds.
protocol NDJSONRecordDecoder: Sendable {
    /// Calls `body` with each document of `record`, read at `line`. `locate` turns offsets in
    /// the record into locations.
    func decode(
        _ record: JSONNode,
        line: RecordLine,
        locate: (Int) -> SourceLocation,
        _ body: (ExportedDocument) -> Void
    ) throws(ExportError)

    /// The document of `line` read without decoding all of it, when the decoder can and was
    /// asked to; nil to decode the line.
    func transcode(_ line: Line, path: String) -> ExportedDocument?
}

extension NDJSONRecordDecoder {
    func transcode(_ line: Line, path: String) -> ExportedDocument? { nil }
}

/// Where a record is: its file and 1-based line.
struct RecordLine {
    var path: String
    var number: Int

    /// The location of the JSON value at `offset` in the record. Most records start their line:
    /// only for the others is the line scanned for the column.
    func location(ofOffset offset: Int, locate: (Int) -> SourceLocation) -> SourceLocation {
        offset == 0 ? SourceLocation(file: path, line: number, column: 1) : locate(offset)
    }
}

/// Reads an NDJSON export whose lines each hold documents (REST records, firestore-backfire
/// records).
///
/// Lines are independent, so each batch of lines (the complete lines of one read) is parsed and
/// decoded on every core, then handed out in file order: the documents, and the first error,
/// are exactly those a line-by-line reader would give.
struct NDJSONDocumentSource<Decoder: NDJSONRecordDecoder>: ExportDocumentSource {
    /// Lines per batch: about one 4 MiB read of typical documents.
    private static var batchLimit: Int { 4096 }

    private var records: NDJSONRecords
    private let decoder: Decoder
    private let threads: Int
    /// Documents of the current batch not handed out yet, and the error that ended the batch.
    private var pending = OrderedOutputs<ExportedDocument>()
    private var pendingError: ExportError?

    /// Reads the documents of `file`, or of the lines that start in `range`, numbered as
    /// `numbering` says.
    init(
        file: InputFile, decoder: Decoder, chunkSize: Int, range: Range<Int>? = nil, numbering: LineNumbering = .fromFileStart,
        threads: Int = Processors.online
    ) {
        records = NDJSONRecords(file: file, chunkSize: chunkSize, range: range, numbering: numbering)
        self.decoder = decoder
        self.threads = threads
    }

    var bytesRead: Int? { records.bytesRead }

    mutating func next() throws(ExportError) -> ExportedDocument? {
        while true {
            if let document = pending.next() { return document }
            if let error = pendingError { throw error }
            let batch = try records.nextBatch(limit: Self.batchLimit)
            guard !batch.isEmpty else { return nil }
            decode(batch)
        }
    }

    /// Decodes `batch` on every core, keeping the documents in order up to the first failing line.
    private mutating func decode(_ batch: [Line]) {
        let shared = SharedLines(lines: batch)
        let (decoder, path) = (self.decoder, records.path)
        let decoded = parallelMapUntilFailure(count: batch.count, threads: threads, minimumPerSlice: 64) {
            (index: Int, documents: inout [ExportedDocument]) throws(ExportError) in
            if let document = decoder.transcode(shared.lines[index], path: path) {
                documents.append(document)
                return
            }
            try NDJSONRecords.parse(shared.lines[index], path: path) { record, locate, line throws(ExportError) in
                try decoder.decode(record, line: RecordLine(path: path, number: line), locate: locate) { documents.append($0) }
            }
        }
        pending = decoded.outputs
        pendingError = decoded.failure
    }
}

/// A batch of lines shared by the decoding threads: the lines point into the reader's buffer,
/// which stays untouched (and is only read) until every thread is done.
private struct SharedLines: @unchecked Sendable {
    let lines: [Line]
}
