import FirestoreModel
import JSONCore
import ParallelWork

/// A file of exported documents with where each was read: what a map task of a sharded build
/// hands to the merge. Documents and locations come back exactly; the database the export
/// named for each (``ExportedDocument/sourceDatabase``) is not kept: they read as the target's.
///
/// Each record is its length (a varint), then the index of its file in a table the log's
/// reader is given, its line and column (0 in a binary file), its byte offset plus one (0 in a
/// text file), all varints, the document in its binary form (``FirestoreModel/Document/appendBinary(to:)``),
/// and its ``ExportedDocument/encodedFields``: their byte count plus one, a varint (0 for none),
/// and the bytes. Reading it back gives the same documents and locations, in the same order,
/// decoded on every core; it reads several times faster than the JSON the documents came from.
public enum ExportedDocumentLog {
    /// Appends `exported`, read from the file at index `file` of the log's table, as one record.
    public static func append(_ exported: ExportedDocument, file: Int, to bytes: inout [UInt8]) {
        var record: [UInt8] = []
        let location = exported.location
        for number in [file, location.line, location.column, location.byteOffset.map { $0 + 1 } ?? 0] {
            Varint.append(UInt64(number), to: &record)
        }
        exported.document.appendBinary(to: &record)
        Varint.append(exported.encodedFields.map { UInt64($0.count + 1) } ?? 0, to: &record)
        record += exported.encodedFields ?? []
        Varint.append(UInt64(record.count), to: &bytes)
        bytes.append(contentsOf: record)
    }

    /// A file the records of a log name by its index.
    public struct File: Sendable {
        public var path: String
        /// Added to the line numbers of the file's records (those of a byte range read with
        /// ``LineNumbering/fromRangeStart``: the newlines before the range).
        public var linesBefore: Int

        public init(path: String, linesBefore: Int = 0) {
            self.path = path
            self.linesBefore = linesBefore
        }
    }

    /// Opens the log at `path`, whose records name files by their index in `files`; its
    /// documents belong to `database`.
    public static func open(_ path: String, files: [File], database: DatabaseID, threads: Int = Processors.online) throws(ExportError) -> any ExportDocumentSource {
        LogSource(file: try InputFile(path: path), files: files, database: database, threads: threads)
    }
}

/// Reads a log a chunk at a time, decoding each chunk's records on every core.
private struct LogSource: ExportDocumentSource {
    private let file: InputFile
    private let files: [ExportedDocumentLog.File]
    private let database: DatabaseID
    private let threads: Int
    /// Read bytes: `start..<end` are not decoded yet (the start of a record the last chunk cut).
    private var buffer = [UInt8](repeating: 0, count: 4 << 20)
    private var start = 0
    private var end = 0
    /// The file offset of `buffer[0]`.
    private var bufferOffset = 0
    private var atEnd = false
    private var pending = OrderedOutputs<ExportedDocument>()
    private(set) var bytesRead: Int? = 0

    init(file: InputFile, files: [ExportedDocumentLog.File], database: DatabaseID, threads: Int) {
        self.file = file
        self.files = files
        self.database = database
        self.threads = threads
    }

    mutating func next() throws(ExportError) -> ExportedDocument? {
        while true {
            if let document = pending.next() { return document }
            guard try fillPending() else { return nil }
        }
    }

    /// Reads more of the file and decodes the whole records it completes; false at the end.
    private mutating func fillPending() throws(ExportError) -> Bool {
        var found: [Range<Int>] = []
        while found.isEmpty {
            if atEnd {
                guard start == end else { throw damaged(at: bufferOffset + start, "the last record is cut short") }
                return false
            }
            try readMore()
            found = try wholeRecords()
        }
        let (files, database, offset, log, records) = (self.files, self.database, bufferOffset, file.path, found)
        let decoded = buffer.withUnsafeBytes { bytes in
            let shared = SharedBytes(bytes: bytes)
            return parallelMapUntilFailure(count: records.count, threads: threads, minimumPerSlice: 256) {
                (index: Int, documents: inout [ExportedDocument]) throws(ExportError) in
                documents.append(try Self.decode(shared.bytes, records[index], files: files, database: database, log: log, fileOffset: offset))
            }
        }
        if let failure = decoded.failure { throw failure }
        pending = decoded.outputs
        start = records.last!.upperBound
        return true
    }

    /// Moves the undecoded bytes to the front (growing the buffer when they fill it) and reads
    /// after them.
    private mutating func readMore() throws(ExportError) {
        if start > 0 {
            let (from, count) = (start, end - start)
            buffer.withUnsafeMutableBytes { bytes in
                bytes.baseAddress!.copyMemory(from: bytes.baseAddress! + from, byteCount: count)
            }
            bufferOffset += start
            end -= start
            start = 0
        }
        if end == buffer.count { buffer += repeatElement(0, count: buffer.count) }
        let (file, filled) = (self.file, end)
        let count = try buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(ExportError) in try file.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[filled...])) }
        }.get()
        end += count
        atEnd = count == 0
        bytesRead! += count
    }

    /// The ranges of the whole records in `start..<end`.
    private func wholeRecords() throws(ExportError) -> [Range<Int>] {
        var records: [Range<Int>] = []
        let (from, to) = (start, end)
        let problem = buffer.withUnsafeBytes { all -> (offset: Int, length: UInt64)? in
            let bytes = UnsafeRawBufferPointer(rebasing: all[..<to])
            var offset = from
            while offset < to {
                var recordStart = offset
                guard let length = Varint.read(bytes, at: &recordStart) else {
                    // Cut by the chunk, unless ten bytes are there: then no varint.
                    if to - offset >= 10 { return (offset, .max) }
                    break
                }
                guard length <= UInt64(to - recordStart) else {
                    // Not all read yet, or longer than any record can be.
                    if length > UInt64(Int32.max) { return (offset, length) }
                    break
                }
                records.append(recordStart..<recordStart + Int(length))
                offset = recordStart + Int(length)
            }
            return nil
        }
        if let problem {
            throw damaged(at: bufferOffset + problem.offset, problem.length == .max ? "a record length is not a number" : "a record length of \(problem.length)")
        }
        return records
    }

    private static func decode(
        _ bytes: UnsafeRawBufferPointer, _ record: Range<Int>, files: [ExportedDocumentLog.File], database: DatabaseID, log: String, fileOffset: Int
    ) throws(ExportError) -> ExportedDocument {
        let recordBytes = UnsafeRawBufferPointer(rebasing: bytes[record])
        var offset = 0
        var numbers: [Int] = []
        for _ in 0..<4 {
            guard let number = Varint.read(recordBytes, at: &offset), number <= UInt64(Int.max) else {
                throw .invalidDocument(SourceLocation(file: log, byteOffset: fileOffset + record.lowerBound), message: "a record's location is cut short or out of range")
            }
            numbers.append(Int(number))
        }
        guard files.indices.contains(numbers[0]) else {
            throw .invalidDocument(
                SourceLocation(file: log, byteOffset: fileOffset + record.lowerBound), message: "a record names file \(numbers[0]), not one of the \(files.count) the log lists")
        }
        let file = files[numbers[0]]
        let location = numbers[3] > 0
            ? SourceLocation(file: file.path, byteOffset: numbers[3] - 1)
            : SourceLocation(file: file.path, line: numbers[1] + file.linesBefore, column: numbers[2])
        do throws(BinaryDecodingError) {
            let document = try Document(binary: recordBytes, offset: &offset)
            guard let encodedCount = Varint.read(recordBytes, at: &offset), encodedCount <= UInt64(recordBytes.count - offset + 1) else {
                throw BinaryDecodingError(offset: offset, message: "the document's encoded fields are cut short")
            }
            let encoded = encodedCount == 0 ? nil : Array(recordBytes[offset..<(offset + Int(encodedCount) - 1)])
            offset += max(0, Int(encodedCount) - 1)
            guard offset == recordBytes.count else {
                throw BinaryDecodingError(offset: offset, message: "\(recordBytes.count - offset) bytes follow the document")
            }
            return ExportedDocument(document: document, sourceDatabase: database, location: location, encodedFields: encoded)
        } catch {
            throw .invalidDocument(SourceLocation(file: log, byteOffset: fileOffset + record.lowerBound + error.offset), message: error.message)
        }
    }

    private func damaged(at offset: Int, _ message: String) -> ExportError {
        .invalidDocument(SourceLocation(file: file.path, byteOffset: offset), message: message)
    }
}

/// A chunk's bytes shared by the decoding threads, which only read them while the source waits.
private struct SharedBytes: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
}
