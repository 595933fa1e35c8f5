/// Writes compact, ASCII-only JSON into a byte buffer with exact control over every byte.
///
/// Bundles need output that `JSONEncoder` cannot promise: non-ASCII escaped as `\uXXXX` (with
/// surrogate pairs), doubles that always carry a `.` or an exponent, `-0.0`, and keys in the
/// order the caller writes them. The writer does not check structure; callers write well-formed
/// JSON by construction, and the tests parse what they write.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init(reservingCapacity capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// A writer that writes into `storage`'s memory, emptied: a large buffer used again rather
    /// than fresh pages mapped (and faulted in) for each output (`ParallelWork.HandedBuffer`).
    public init(reusing storage: consuming [UInt8], reservingCapacity capacity: Int) {
        // `consume`: a copy of the parameter would share the storage, and emptying it would then
        // allocate anew.
        bytes = consume storage
        bytes.removeAll(keepingCapacity: true)
        bytes.reserveCapacity(capacity)
    }

    public var count: Int { bytes.count }

    /// Empties the writer, keeping its storage for what is written next.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Drops what was written after the first `count` bytes.
    public mutating func truncate(to count: Int) {
        bytes.removeSubrange(count...)
    }

    /// Appends raw ASCII punctuation or a pre-encoded fragment, e.g. `{`, `,"name":`.
    public mutating func raw(_ fragment: StaticString) {
        fragment.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends bytes that are already valid JSON (for example a fragment written earlier).
    public mutating func raw<S: Sequence>(bytes fragment: S) where S.Element == UInt8 {
        bytes.append(contentsOf: fragment)
    }

    public mutating func byte(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends `"key":`.
    public mutating func key(_ key: String) {
        string(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Appends a JSON string literal, escaping `"`, `\`, control characters and every
    /// non-ASCII scalar as `\uXXXX` (surrogate pairs above U+FFFF).
    public mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        escaped(value)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `value` as ``string(_:)`` writes it between its quotes: a string literal written
    /// in pieces (a resource name from its path's segments, say) is the one `string` writes of
    /// the pieces joined.
    public mutating func escaped(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            // Copy runs of plain ASCII in bulk; escape only the bytes and scalars that need it.
            var runStart = 0
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                if byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                    index += 1
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                let (scalar, length) = Self.decodeScalar(utf8, at: index)
                appendEscaped(scalar)
                index += length
                runStart = index
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
    }

    /// Writes the value of the JSON string literal that starts at `start` of `json` (its opening
    /// quote) as ``string(_:)`` writes it, and returns the index after the literal; nil, with
    /// nothing written, when there is no valid literal there (``JSONParser`` says why).
    ///
    /// Plain ASCII is copied, valid UTF-8 and the escapes of one character are written escaped
    /// as they are read; a literal with a `\u` escape (or anything the parser must judge) is
    /// decoded by ``JSONParser/string(in:at:)`` and written again.
    public mutating func copyString(_ json: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        guard start < json.count, json[start] == UInt8(ascii: "\"") else { return nil }
        let mark = bytes.count
        if let end = copyStringAsRead(json, at: start) { return end }
        truncate(to: mark)
        guard let decoded = JSONParser.string(in: json, at: start) else { return nil }
        string(decoded.value)
        return decoded.end
    }

    /// ``copyString(_:at:)`` in one pass over the literal; nil (with what it wrote left for the
    /// caller to drop) at a `\u` escape or at what the parser must judge.
    private mutating func copyStringAsRead(_ json: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        bytes.append(UInt8(ascii: "\""))
        var index = start + 1
        var runStart = index
        while index < json.count {
            let byte = json[index]
            if byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: json[runStart..<index]))
            switch byte {
            case UInt8(ascii: "\""):
                bytes.append(UInt8(ascii: "\""))
                return index + 1
            case UInt8(ascii: "\\"):
                guard index + 1 < json.count else { return nil }
                switch json[index + 1] {
                case UInt8(ascii: "\""): appendEscaped(0x22)
                case UInt8(ascii: "\\"): appendEscaped(0x5C)
                case UInt8(ascii: "/"): bytes.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): appendEscaped(0x08)
                case UInt8(ascii: "f"): appendEscaped(0x0C)
                case UInt8(ascii: "n"): appendEscaped(0x0A)
                case UInt8(ascii: "r"): appendEscaped(0x0D)
                case UInt8(ascii: "t"): appendEscaped(0x09)
                default: return nil
                }
                index += 2
            default:
                guard let (scalar, length) = Self.validScalar(json, at: index) else { return nil }
                appendEscaped(scalar)
                index += length
            }
            runStart = index
        }
        return nil
    }

    /// The scalar whose UTF-8 encoding starts at `index` of `utf8` (a lead byte of 0x80 or more)
    /// and the number of bytes it takes; nil when those bytes are no valid UTF-8 (Unicode's
    /// table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF).
    private static func validScalar(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int)? {
        let lead = utf8[index]
        let length: Int
        let second: ClosedRange<UInt8>
        switch lead {
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: return nil
        }
        guard index + length <= utf8.count, second.contains(utf8[index + 1]),
              utf8[(index + 2)..<(index + length)].allSatisfy({ $0 & 0xC0 == 0x80 })
        else { return nil }
        return (decodeScalar(utf8, at: index).0, length)
    }

    /// The scalar whose UTF-8 encoding starts at `index` of valid UTF-8 (a Swift string's), and
    /// the number of bytes it takes.
    private static func decodeScalar(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int) {
        let lead = UInt32(utf8[index])
        switch lead {
        case ..<0x80:
            return (lead, 1)
        case ..<0xE0:
            return ((lead & 0x1F) << 6 | UInt32(utf8[index + 1] & 0x3F), 2)
        case ..<0xF0:
            return ((lead & 0x0F) << 12 | UInt32(utf8[index + 1] & 0x3F) << 6 | UInt32(utf8[index + 2] & 0x3F), 3)
        default:
            let high = (lead & 0x07) << 18 | UInt32(utf8[index + 1] & 0x3F) << 12
            return (high | UInt32(utf8[index + 2] & 0x3F) << 6 | UInt32(utf8[index + 3] & 0x3F), 4)
        }
    }

    private mutating func appendEscaped(_ scalar: UInt32) {
        switch scalar {
        case 0x22: raw("\\\"")
        case 0x5C: raw("\\\\")
        case 0x08: raw("\\b")
        case 0x0C: raw("\\f")
        case 0x0A: raw("\\n")
        case 0x0D: raw("\\r")
        case 0x09: raw("\\t")
        case 0..<0x20, 0x80...0xFFFF:
            appendUnicodeEscape(UInt16(scalar))
        default:
            let offset = scalar - 0x10000
            appendUnicodeEscape(UInt16(0xD800 + (offset >> 10)))
            appendUnicodeEscape(UInt16(0xDC00 + (offset & 0x3FF)))
        }
    }

    private mutating func appendUnicodeEscape(_ unit: UInt16) {
        let digits: StaticString = "0123456789abcdef"
        raw("\\u")
        digits.withUTF8Buffer { hex in
            bytes.append(hex[Int(unit >> 12 & 0xF)])
            bytes.append(hex[Int(unit >> 8 & 0xF)])
            bytes.append(hex[Int(unit >> 4 & 0xF)])
            bytes.append(hex[Int(unit & 0xF)])
        }
    }

    /// Appends a JSON integer literal (of at most 64 bits).
    public mutating func integer<I: FixedWidthInteger>(_ value: I) {
        guard let magnitude = UInt64(exactly: value.magnitude) else { preconditionFailure("\(value) has more than 64 bits") }
        integer(magnitude: magnitude, negative: value < 0)
    }

    // `Int` and `Int64` without generics: a generic function called from another module runs
    // unspecialised, through witness tables, and a bundle writes an integer per element.

    /// Appends a JSON integer literal.
    public mutating func integer(_ value: Int) {
        integer(magnitude: UInt64(value.magnitude), negative: value < 0)
    }

    /// Appends a JSON integer literal.
    public mutating func integer(_ value: Int64) {
        integer(magnitude: value.magnitude, negative: value < 0)
    }

    private mutating func integer(magnitude: UInt64, negative: Bool) {
        if magnitude == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        if negative { bytes.append(UInt8(ascii: "-")) }
        // The digits, last first, then turned around in place: no buffer of their own.
        let start = bytes.count
        var rest = magnitude
        while rest > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10))
            rest /= 10
        }
        bytes.withUnsafeMutableBufferPointer { buffer in
            var digits = UnsafeMutableBufferPointer(rebasing: buffer[start...])
            digits.reverse()
        }
    }

    /// Appends a finite double as the shortest literal that round-trips, always containing a
    /// `.` or an exponent (`1.0`, `-0.0`, `1e-05`) so readers never take it for an integer.
    /// Non-finite values are written as the strings `"NaN"`, `"Infinity"`, `"-Infinity"`, as
    /// proto3 JSON requires.
    public mutating func double(_ value: Double) {
        if value.isNaN {
            raw("\"NaN\"")
        } else if value.isInfinite {
            if value < 0 { raw("\"-Infinity\"") } else { raw("\"Infinity\"") }
        } else {
            // Swift's description is the shortest round-trip form and always has "." or "e"
            // for finite doubles ("1.0", "1e-05", "5e-324", "1.7976931348623157e+308").
            bytes.append(contentsOf: value.description.utf8)
        }
    }

    public mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    public mutating func null() {
        raw("null")
    }
}
