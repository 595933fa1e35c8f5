/// The parts of a name's UTF-8 bytes between `/`s, empty parts included (`a//b/` has `a`, ``,
/// `b`, ``; an empty name has one empty part), read from the front without making Strings:
/// resource names are parsed for every document and reference in an export, and only their
/// path segments need to be Strings.
///
/// The bytes are a String's, and `/` is ASCII, so every part is valid UTF-8 on its own.
struct SlashSeparatedParts {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// Where the next part starts; past the end once the last part has been read.
    private var start = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Reads the next part; nil after the last.
    mutating func next() -> UnsafeBufferPointer<UInt8>? {
        guard start <= bytes.count else { return nil }
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "/") { end += 1 }
        defer { start = end + 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// Reads the next part: true when it is `word`.
    mutating func next(is word: StaticString) -> Bool {
        guard let part = next() else { return false }
        return UTF8Order.equal(bytes: part, word)
    }

    /// Reads the next part: nil when it is empty or there is none.
    mutating func nextNonEmpty() -> UnsafeBufferPointer<UInt8>? {
        guard let part = next(), !part.isEmpty else { return nil }
        return part
    }

    /// Reads the parts left, each into a String; nil when one of them is empty.
    mutating func segments() -> [String]? {
        var segments: [String] = []
        if start <= bytes.count {
            segments.reserveCapacity(1 + bytes[start...].count { $0 == UInt8(ascii: "/") })
        }
        while let part = next() {
            guard !part.isEmpty else { return nil }
            // `String(decoding:)` checks the bytes again: for ASCII, that costs less than
            // making the segment a Substring of the String first.
            segments.append(String(decoding: part, as: UTF8.self))
        }
        return segments
    }
}
