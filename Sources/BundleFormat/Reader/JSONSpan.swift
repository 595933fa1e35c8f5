/// A lexical pass over one JSON object or array: where it ends, and whether it has whitespace
/// between tokens or raw non-ASCII bytes. Used to report the real length of a mis-framed element
/// and to notice non-compact JSON without a second parse.
struct JSONSpan {
    /// One past the value's closing bracket, or nil when the input ends first.
    var end: Int?
    /// Whitespace outside strings before `end`.
    var hasWhitespace = false
    /// A byte ≥ 0x80 before `end`.
    var hasNonASCII = false

    /// Scans the object or array starting at `start` (whose byte must be `{` or `[`), up to `limit`.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int? = nil) -> JSONSpan {
        var span = JSONSpan()
        let stop = min(limit ?? bytes.count, bytes.count)
        var depth = 0
        var inString = false
        var escaped = false
        var index = start
        while index < stop {
            let byte = bytes[index]
            index += 1
            if byte >= 0x80 { span.hasNonASCII = true }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 {
                    span.end = index
                    return span
                }
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                span.hasWhitespace = true
            default:
                break
            }
        }
        return span
    }

    static func scan(_ bytes: [UInt8], from start: Int) -> JSONSpan {
        bytes.withUnsafeBufferPointer { scan($0, from: start) }
    }
}
