import JSONCore

/// The records of an NDJSON file, parsed one line at a time while the file streams through a
/// ``LineReader``; blank lines are skipped, and a file without any record is an error.
struct NDJSONRecords {
    private let lines: LineReader
    /// The file, for messages.
    let path: String
    private var sawRecord = false

    init(file: InputFile, chunkSize: Int) {
        lines = LineReader(file: file, chunkSize: chunkSize)
        path = file.path
    }

    /// Parses the next record and calls `body` with it, a function that turns offsets in it
    /// into locations (valid only during the call), and its line number. False at the end.
    mutating func next(
        _ body: (_ record: JSONNode, _ locate: (Int) -> SourceLocation, _ line: Int) throws(ExportError) -> Void
    ) throws(ExportError) -> Bool {
        guard let line = try lines.next() else {
            if !sawRecord { throw .empty(file: path) }
            return false
        }
        sawRecord = true
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
        try body(record, locate, line.number)
        return true
    }
}
