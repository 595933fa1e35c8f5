import JSONCore

/// Reads the records of a LevelDB log file (`google/leveldb` `db/log_format.h`), the framing of
/// every file of a managed or emulator export, one 32 KiB block in memory at a time.
///
/// Each physical record is a 7-byte header (masked CRC-32C of type and payload, little-endian
/// u32; payload length, u16; type: 1 FULL, 2 FIRST, 3 MIDDLE, 4 LAST) and its payload, never
/// crossing a block boundary. Fewer than 7 bytes left in a block are zero filler; a zero header
/// starts zero padding to the end of the block. Unlike LevelDB's own reader, which skips what
/// it cannot read, every damaged, truncated or out-of-order record is an error naming the file,
/// the byte offset and what was expected.
struct LevelDBLogReader {
    static let blockSize = 32_768
    static let headerSize = 7

    /// The physical record types.
    enum RecordType: UInt8, CustomStringConvertible {
        case full = 1, first, middle, last

        var description: String {
            switch self {
            case .full: return "FULL"
            case .first: return "FIRST"
            case .middle: return "MIDDLE"
            case .last: return "LAST"
            }
        }
    }

    #if FUZZING
    private static let ignoresChecksums = true
    #else
    private static let ignoresChecksums = false
    #endif

    private let file: InputFile
    private var block = [UInt8](repeating: 0, count: LevelDBLogReader.blockSize)
    /// The valid bytes of `block`: the block size except for the last block of the file.
    private var blockLength = 0
    /// The file offset of `block`.
    private var blockStart = 0
    /// The next unread byte of `block`.
    private var position = 0
    private var reachedEnd = false

    init(file: InputFile) {
        self.file = file
    }

    var path: String { file.path }

    /// Bytes read from the file so far.
    var bytesRead: Int { blockStart + blockLength }

    /// The next record, or nil at the end of the file.
    mutating func next() throws(ExportError) -> LogRecord? {
        var pending: LogRecord?
        while true {
            guard let (type, fragment, offset) = try nextFragment() else {
                if let pending {
                    throw invalid(at: blockStart + position, "the file ends inside the record that starts at byte \(pending.offset); expected its LAST fragment (a truncated file?)")
                }
                return nil
            }
            let payloadOffset = offset + Self.headerSize
            switch (type, pending) {
            case (.full, nil):
                return LogRecord(fragment: fragment, fileOffset: payloadOffset)
            case (.first, nil):
                pending = LogRecord(fragment: fragment, fileOffset: payloadOffset)
            case (.middle, .some):
                pending!.append(fragment, fileOffset: payloadOffset)
            case (.last, .some):
                pending!.append(fragment, fileOffset: payloadOffset)
                return pending
            case (.middle, nil), (.last, nil):
                throw invalid(at: offset, "found a \(type) fragment outside a record; expected a FULL or FIRST record")
            case (.full, .some(let record)), (.first, .some(let record)):
                throw invalid(at: offset, "found a \(type) record inside the record that starts at byte \(record.offset); expected a MIDDLE or LAST fragment")
            }
        }
    }

    /// The next physical record: its type, payload (in `block`) and file offset.
    private mutating func nextFragment() throws(ExportError) -> (RecordType, ArraySlice<UInt8>, Int)? {
        while true {
            if blockLength - position < Self.headerSize {
                try checkFiller(from: position)
                guard try readBlock() else { return nil }
                continue
            }
            let offset = blockStart + position
            let storedCRC = (0..<4).reduce(UInt32(0)) { $0 | UInt32(block[position + $1]) << (8 * $1) }
            let length = Int(block[position + 4]) | Int(block[position + 5]) << 8
            let typeByte = block[position + 6]
            if typeByte == 0, length == 0 {
                try checkFiller(from: position)
                position = blockLength
                continue
            }
            let payloadStart = position + Self.headerSize
            guard payloadStart + length <= blockLength else {
                if blockLength < Self.blockSize {
                    throw invalid(at: offset, "the record header says \(length) payload bytes, but the file ends after \(blockLength - payloadStart) (a truncated file?)")
                }
                throw invalid(at: offset, "the record header says \(length) payload bytes, but only \(blockLength - payloadStart) are left in its 32 KiB block; expected a record within its block")
            }
            guard let type = RecordType(rawValue: typeByte) else {
                throw invalid(at: offset, "unknown record type \(typeByte); expected 1 (FULL), 2 (FIRST), 3 (MIDDLE) or 4 (LAST)")
            }
            let payload = block[payloadStart..<payloadStart + length]
            let actualCRC = CRC32C.mask(CRC32C.checksum(payload, continuing: CRC32C.checksum(CollectionOfOne(typeByte))))
            // A fuzzing build (README, "Development") reads past checksums, as C projects do under
            // FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION, so that mutated records reach the decoder.
            guard actualCRC == storedCRC || Self.ignoresChecksums else {
                throw invalid(at: offset, "checksum mismatch: the header says 0x\(String(storedCRC, radix: 16)), the record's type and \(length) payload bytes give 0x\(String(actualCRC, radix: 16))")
            }
            position = payloadStart + length
            return (type, payload, offset)
        }
    }

    /// The bytes of the current block from `start` on must be zero (block filler or padding).
    private func checkFiller(from start: Int) throws(ExportError) {
        if let nonZero = block[start..<blockLength].firstIndex(where: { $0 != 0 }) {
            let gap = blockLength - start
            if gap < Self.headerSize, blockLength < Self.blockSize {
                throw invalid(at: blockStart + start, "the file ends inside a record header (\(gap) of its 7 bytes; a truncated file?)")
            }
            throw invalid(at: blockStart + nonZero, "found a non-zero byte in the zero filler at the end of a block; expected a record header only where 7 bytes or more are left in the block")
        }
    }

    /// Reads the next block; false at the end of the file.
    private mutating func readBlock() throws(ExportError) -> Bool {
        guard !reachedEnd else { return false }
        blockStart += blockLength
        blockLength = 0
        position = 0
        while blockLength < Self.blockSize {
            let filled = blockLength
            let count = try block.withUnsafeMutableBytes { buffer in
                Result { () throws(ExportError) in try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])) }
            }.get()
            if count == 0 {
                reachedEnd = true
                break
            }
            blockLength += count
        }
        return blockLength > 0
    }

    private func invalid(at offset: Int, _ message: String) -> ExportError {
        .invalidBinary(SourceLocation(file: file.path, byteOffset: offset), message: message)
    }
}
