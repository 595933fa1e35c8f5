/// The bytes a bracket expression (`[a-z]`, `[!.]`) of a glob accepts.
struct ByteSet: Equatable {
    /// True for `[!…]` and `[^…]`: every byte except those in ``ranges``.
    var negated: Bool
    /// The bytes listed, as ranges (a single byte is a one-byte range).
    var ranges: [ClosedRange<UInt8>]

    /// The set without the bytes `excluded`. A positive set may become empty.
    func removing(_ excluded: [UInt8]) -> ByteSet {
        if negated {
            return ByteSet(negated: true, ranges: ranges + excluded.map { $0...$0 })
        }
        var remaining = ranges
        for byte in excluded {
            remaining = remaining.flatMap { range -> [ClosedRange<UInt8>] in
                guard range.contains(byte) else { return [range] }
                var parts: [ClosedRange<UInt8>] = []
                if range.lowerBound < byte { parts.append(range.lowerBound...(byte - 1)) }
                if byte < range.upperBound { parts.append((byte + 1)...range.upperBound) }
                return parts
            }
        }
        return ByteSet(negated: false, ranges: remaining)
    }

    /// True when a positive set has no byte left.
    var isEmpty: Bool { !negated && ranges.isEmpty }

    /// Reads the bracket expression that starts with the `[` at `start`, the way glibc's
    /// fnmatch does for well-formed ones: `!` or `^` negates, a `]` first is literal, `a-z` is a
    /// range, `\` escapes. Returns the set and the index after the closing `]`, or nil for what
    /// ``GlobToken/parse(_:)`` does not follow.
    static func parseBracket(_ bytes: [UInt8], at start: Int) -> (ByteSet, end: Int)? {
        var index = start + 1
        var negated = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "!") || bytes[index] == UInt8(ascii: "^") {
            negated = true
            index += 1
        }
        var ranges: [ClosedRange<UInt8>] = []
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "]"), !ranges.isEmpty {
                return (ByteSet(negated: negated, ranges: ranges), index + 1)
            }
            guard let (low, afterLow) = bracketByte(bytes, at: index) else { return nil }
            let isRange = afterLow + 1 < bytes.count && bytes[afterLow] == UInt8(ascii: "-") && bytes[afterLow + 1] != UInt8(ascii: "]")
            guard isRange else {
                ranges.append(low...low)
                index = afterLow
                continue
            }
            guard let (high, afterHigh) = bracketByte(bytes, at: afterLow + 1), low <= high else { return nil }
            ranges.append(low...high)
            index = afterHigh
        }
        return nil
    }

    /// One member byte inside brackets (escaped or not) and the index after it; nil for a
    /// class, equivalence or collating bracket, a non-ASCII byte or a dangling `\`.
    private static func bracketByte(_ bytes: [UInt8], at index: Int) -> (UInt8, Int)? {
        var index = index
        if bytes[index] == UInt8(ascii: "["), index + 1 < bytes.count, Array(":=.".utf8).contains(bytes[index + 1]) {
            return nil
        }
        if bytes[index] == UInt8(ascii: "\\") {
            index += 1
            guard index < bytes.count else { return nil }
        }
        guard bytes[index] < 0x80 else { return nil }
        return (bytes[index], index + 1)
    }
}
