import JSONCore

/// The records of an NDJSON file (or of a byte range of it), parsed line by line while the
/// file streams through a ``LineReader``; blank lines are skipped, and a file without any
/// record is an error.
struct NDJSONRecords {
    private let lines: LineReader
    /// The file, for messages.
    let path: String
    private var sawRecord = false
    /// Whether this reads the file's first line, so that it tells an empty file.
    private let readsFirstLine: Bool

    /// Reads the records of `file`, or only those whose lines start in `range`, numbered as
    /// `numbering` says.
    init(file: InputFile, chunkSize: Int, range: Range<Int>? = nil, numbering: LineNumbering = .fromFileStart) {
        lines = LineReader(file: file, chunkSize: chunkSize, range: range, numbering: numbering)
        path = file.path
        readsFirstLine = (range?.lowerBound ?? 0) == 0
    }

    /// Bytes read from the file so far.
    var bytesRead: Int { lines.bytesRead }

    /// Parses the next record and calls `body` with it, a function that turns offsets in it
    /// into locations (valid only during the call), and its line number. False at the end.
    mutating func next(
        _ body: (_ record: JSONNode, _ locate: (Int) -> SourceLocation, _ line: Int) throws(ExportError) -> Void
    ) throws(ExportError) -> Bool {
        guard let line = try nextBatch(limit: 1).first else { return false }
        try Self.parse(line, path: path, body)
        return true
    }

    /// The next lines, at most `limit` (see ``LineReader/nextBatch(limit:)``), unparsed, so that
    /// several threads can parse them with ``parse(_:path:_:)``; empty at the end. They stay
    /// valid until the next call.
    mutating func nextBatch(limit: Int) throws(ExportError) -> [Line] {
        let batch = try lines.nextBatch(limit: limit)
        // A file without a record is an error, found by the reader of its first line.
        if batch.isEmpty, !sawRecord, readsFirstLine, try lines.isBlankAfterRange() { throw .empty(file: path) }
        sawRecord = true
        return batch
    }

    /// Parses `line` of the file at `path` and calls `body` as ``next(_:)`` does.
    static func parse(
        _ line: Line,
        path: String,
        _ body: (_ record: JSONNode, _ locate: (Int) -> SourceLocation, _ line: Int) throws(ExportError) -> Void
    ) throws(ExportError) {
        let locate = { (offset: Int) in
            SourceMap(file: path, bytes: line.bytes, firstLine: line.number).location(ofOffset: offset)
        }
        let record: JSONNode
        do {
            record = try JSONParser.parse(line.bytes)
        } catch {
            throw .syntax(locate(error.offset), message: error.message)
        }
        try body(record, locate, line.number)
    }
}
