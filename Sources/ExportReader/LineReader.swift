import SystemSupport

/// One non-blank line of a file: its bytes without the `\n` or `\r\n`, and its 1-based number
/// (see ``LineNumbering``).
/// The bytes belong to the ``LineReader`` and stay valid until its next call.
struct Line {
    var bytes: UnsafeBufferPointer<UInt8>
    var number: Int
}

/// Splits a file into lines while reading it in chunks, so memory stays at one chunk plus the
/// longest line however large the file is.
///
/// A line cut by a chunk boundary is moved to the front of the buffer and completed by the next
/// read; a line longer than the buffer doubles it. Blank lines (only spaces, tabs, `\r`) are
/// skipped but still counted.
///
/// Given a byte range, it reads only the lines that *start* in it: the lines of a file cut
/// into ranges are each read by exactly one range's reader.
final class LineReader {
    private let file: InputFile
    private var buffer: UnsafeMutableBufferPointer<UInt8>
    /// The byte range whose lines are read; nil for the whole file.
    private let range: Range<Int>?
    private let numbering: LineNumbering
    /// The file offset of `buffer[0]`.
    private var bufferOffset = 0
    /// Whether the lines before the range are still to be skipped.
    private var skipping: Bool
    /// Set once the lines of the range are all read: a line starting at or past its end is
    /// seen, or the file ended before a line started in it.
    private var pastRange = false
    /// Unconsumed bytes are `start..<end`; `scanned..<end` has not been searched for `\n` yet.
    private var start = 0
    private var end = 0
    private var scanned = 0
    private var atEndOfFile = false
    private var nextLineNumber = 1
    /// Bytes read from the file so far.
    private(set) var bytesRead = 0

    init(file: InputFile, chunkSize: Int, range: Range<Int>? = nil, numbering: LineNumbering = .fromFileStart) {
        precondition(chunkSize > 0, "the chunk size must be positive")
        self.file = file
        self.range = range
        self.numbering = numbering
        skipping = (range?.lowerBound ?? 0) > 0
        buffer = .allocate(capacity: chunkSize)
    }

    deinit {
        buffer.deallocate()
    }

    /// The next non-blank line, or nil at the end of the file.
    func next() throws(ExportError) -> Line? {
        try nextBatch(limit: 1).first
    }

    /// The next non-blank lines, at most `limit` of them: those already complete in the buffer,
    /// reading more only when none is. Empty at the end of the file.
    ///
    /// Every returned line stays valid until the next call, which is what lets several threads
    /// parse one batch while the reader waits.
    func nextBatch(limit: Int) throws(ExportError) -> [Line] {
        if skipping { try skipToRange() }
        var lines: [Line] = []
        while lines.count < limit, !pastRange {
            if let newline = findNewline() {
                if let line = takeLine(upTo: newline, consuming: 1) { lines.append(line) }
                continue
            }
            // Reading more would move the bytes the lines taken so far point into.
            guard lines.isEmpty else { break }
            if atEndOfFile {
                guard start < end else { break }
                if let line = takeLine(upTo: end, consuming: 0) { lines.append(line) }
                continue
            }
            // The line in progress starts past the range: no need to read the rest of it.
            if let range, bufferOffset + start >= range.upperBound {
                pastRange = true
                break
            }
            try fill()
        }
        return lines
    }

    /// Whether the file holds only blank bytes (spaces, tabs, `\r`, `\n`) after the range.
    func isBlankAfterRange() throws(ExportError) -> Bool {
        guard let range else { return true }
        return try !file.containsNonBlank(from: range.upperBound, scratch: buffer)
    }

    private func findNewline() -> Int? {
        guard scanned < end, let base = buffer.baseAddress else { return nil }
        guard let found = memchr(base + scanned, Int32(UInt8(ascii: "\n")), end - scanned) else {
            scanned = end
            return nil
        }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// Moves to the first line starting at or after the range's start, dropping the line in
    /// progress at the range's first byte, which belongs to the range before. Lines are numbered
    /// as ``numbering`` says: counting the lines before the range means reading the file up to it.
    private func skipToRange() throws(ExportError) {
        skipping = false
        let first = range!.lowerBound
        if numbering == .fromFileStart {
            nextLineNumber += try file.countNewlines(in: 0..<(first - 1), scratch: buffer)
        }
        try file.seek(to: first - 1)
        bufferOffset = first - 1
        while true {
            if let newline = findNewline() {
                // From the range's start, a newline just before it ends no line of the range.
                if numbering == .fromFileStart || bufferOffset + newline >= first { nextLineNumber += 1 }
                start = newline + 1
                scanned = start
                return
            }
            if atEndOfFile {
                pastRange = true
                return
            }
            // Bytes without a newline are part of the dropped line: no need to keep them.
            start = scanned
            try fill()
        }
    }

    /// Consumes `start..<lineEnd` plus `terminator` bytes; returns the line unless it is blank.
    /// A line starting past the range ends the reading instead.
    private func takeLine(upTo lineEnd: Int, consuming terminator: Int) -> Line? {
        if let range, bufferOffset + start >= range.upperBound {
            pastRange = true
            return nil
        }
        let number = nextLineNumber
        nextLineNumber += 1
        var last = lineEnd
        if last > start, buffer[last - 1] == UInt8(ascii: "\r") { last -= 1 }
        let bytes = UnsafeBufferPointer(rebasing: buffer[start..<last])
        start = lineEnd + terminator
        scanned = start
        let isBlank = bytes.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
        return isBlank ? nil : Line(bytes: bytes, number: number)
    }

    /// Moves the partial line to the front, grows the buffer when it is full, and reads more.
    private func fill() throws(ExportError) {
        if start > 0 {
            let pending = end - start
            if pending > 0, let base = buffer.baseAddress {
                memmove(base, base + start, pending)
            }
            end = pending
            scanned -= start
            bufferOffset += start
            start = 0
        }
        if end == buffer.count {
            let larger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: buffer.count * 2)
            _ = larger.initialize(from: buffer)
            buffer.deallocate()
            buffer = larger
        }
        let count = try file.read(into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[end...])))
        if count == 0 {
            atEndOfFile = true
        } else {
            end += count
            bytesRead += count
        }
    }
}

/// How the lines of a byte range of a file are numbered.
public enum LineNumbering: Sendable {
    /// As in the whole file: the lines before the range are counted, which reads the file up to it.
    case fromFileStart
    /// The line holding the range's first byte is line 1: add the newlines before the range
    /// (``ExportReader/newlines(in:range:)`` of the ranges before) to get the file's numbers.
    case fromRangeStart
}
