/// A cursor over the bytes of one HTTP field value, with the pieces of RFC 9110 §5.6 syntax the
/// conditional and cache layers parse: optional whitespace, tokens, quoted strings, digit runs,
/// literals and comma-separated lists (`#element`, where empty elements are allowed and skipped).
///
/// Every method either consumes what it recognised and returns it, or leaves the cursor where it
/// was and returns `nil`/`false`, so callers can try alternatives.
struct FieldValueScanner {
    private let bytes: [UInt8]
    private var index = 0

    /// Scans `value`, ignoring leading and trailing optional whitespace.
    init(_ value: some StringProtocol) {
        bytes = Array(value.utf8)
        skipWhitespace()
    }

    /// Whether everything but trailing whitespace has been consumed.
    var isAtEnd: Bool {
        bytes[index...].allSatisfy(\.isSpaceOrTab)
    }

    /// The next byte, without consuming it.
    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Skips spaces and horizontal tabs (OWS).
    mutating func skipWhitespace() {
        while let byte = peek, byte.isSpaceOrTab {
            index += 1
        }
    }

    /// Consumes `byte` if it comes next.
    mutating func consume(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    /// Consumes `literal` if it comes next, comparing ASCII letters case-sensitively unless told otherwise.
    mutating func consume(_ literal: String, caseInsensitive: Bool = false) -> Bool {
        var position = index
        for expected in literal.utf8 {
            guard position < bytes.count else { return false }
            let actual = bytes[position]
            let same = caseInsensitive ? actual.asciiLowercased == expected.asciiLowercased : actual == expected
            guard same else { return false }
            position += 1
        }
        index = position
        return true
    }

    /// Consumes the first of `words` that comes next and returns its position in `words`.
    mutating func consume(oneOf words: [String]) -> Int? {
        words.firstIndex { consume($0) }
    }

    /// Consumes a token (`1*tchar`).
    mutating func token() -> String? {
        let start = index
        while let byte = peek, Self.isTokenCharacter(byte) {
            index += 1
        }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    /// Consumes a quoted string and returns its content with quoted pairs unescaped.
    mutating func quotedString() -> String? {
        let start = index
        guard consume(UInt8(ascii: "\"")) else { return nil }
        var content: [UInt8] = []
        while let byte = peek {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: content, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = peek else { break }
                index += 1
                content.append(escaped)
            default:
                content.append(byte)
            }
        }
        index = start
        return nil
    }

    /// Consumes the bytes that `accept` allows, up to the first it rejects.
    mutating func run(while accept: (UInt8) -> Bool) -> String {
        let start = index
        while let byte = peek, accept(byte) {
            index += 1
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Consumes a run of decimal digits. Values too large for `Int` saturate at `Int.max`, which
    /// is what every caller wants (a huge position is past any body; a huge age is "forever").
    mutating func digits() -> Int? {
        let run = run { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard !run.isEmpty else { return nil }
        return run.utf8.reduce(0) { value, digit in
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
            return overflow1 || overflow2 ? Int.max : sum
        }
    }

    /// Consumes exactly `count` decimal digits.
    mutating func digits(exactly count: Int) -> Int? {
        let start = index
        guard let value = digits(), index - start == count else {
            index = start
            return nil
        }
        return value
    }

    /// Moves to the next element of a comma-separated list, skipping whitespace and empty
    /// elements. Returns `false` when the list is exhausted.
    mutating func beginElement() -> Bool {
        while true {
            skipWhitespace()
            guard consume(UInt8(ascii: ",")) else { return peek != nil }
        }
    }

    /// Finishes a list element: only whitespace may follow it before a comma or the end.
    mutating func endElement() -> Bool {
        skipWhitespace()
        return peek == nil || peek == UInt8(ascii: ",")
    }

    /// Skips the rest of a malformed list element, up to the next comma outside a quoted string.
    mutating func skipElement() {
        while let byte = peek, byte != UInt8(ascii: ",") {
            if byte == UInt8(ascii: "\""), quotedString() != nil { continue }
            index += 1
        }
    }

    /// `tchar` of RFC 9110 §5.6.2.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
