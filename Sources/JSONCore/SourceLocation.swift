/// A position in an input file, as users see it: 1-based line and column in a text file, or a
/// byte offset in a binary one (a LevelDB export file).
///
/// Columns count Unicode scalars, so a position under a non-ASCII character is where an
/// editor puts the cursor.
public struct SourceLocation: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    /// The 1-based line; 0 for a position in a binary file.
    public var line: Int
    /// The 1-based column; 0 for a position in a binary file.
    public var column: Int
    /// The 0-based byte offset in a binary file; nil in a text file.
    public var byteOffset: Int?

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// A position in a binary file, `byteOffset` bytes from its start.
    public init(file: String, byteOffset: Int) {
        self.init(file: file, line: 0, column: 0)
        self.byteOffset = byteOffset
    }

    /// `file:line:column`, or `file at byte N` in a binary file.
    public var description: String {
        if let byteOffset { return "\(file) at byte \(byteOffset)" }
        return "\(file):\(line):\(column)"
    }
}

/// Maps byte offsets of a buffer to ``SourceLocation``s.
///
/// `firstLine` lets a caller parse one line of an NDJSON file on its own and still report the
/// line number of the whole file.
public struct SourceMap: Sendable {
    public let file: String
    public let firstLine: Int
    private let bytes: [UInt8]

    public init(file: String, bytes: [UInt8], firstLine: Int = 1) {
        self.file = file
        self.bytes = bytes
        self.firstLine = firstLine
    }

    public init<C: Collection>(file: String, bytes: C, firstLine: Int = 1) where C.Element == UInt8 {
        self.init(file: file, bytes: Array(bytes), firstLine: firstLine)
    }

    /// The location of byte `offset` (clamped to the buffer).
    public func location(ofOffset offset: Int) -> SourceLocation {
        location(ofOffset: offset, after: (offset: 0, location: SourceLocation(file: file, line: firstLine, column: 1)))
    }

    /// The location of byte `offset`, counting forward from `anchor`: an earlier lookup's
    /// offset and result (ignored when it lies after `offset`). Walking a large buffer front
    /// to back this way costs O(buffer) in total instead of O(offset) per lookup.
    public func location(ofOffset offset: Int, after anchor: (offset: Int, location: SourceLocation)) -> SourceLocation {
        let end = min(max(offset, 0), bytes.count)
        let resumes = anchor.offset >= 0 && anchor.offset <= end
        var line = resumes ? anchor.location.line : firstLine
        var column = resumes ? anchor.location.column : 1
        for index in (resumes ? anchor.offset : 0)..<end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SourceLocation(file: file, line: line, column: column)
    }
}
