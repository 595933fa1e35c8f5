/// A Structured Field Dictionary (RFC 8941 §3.2), parsed strictly: what `CDN-Cache-Control`
/// (RFC 9213) is written in. Parameters are checked and dropped; values keep their type.
struct StructuredDictionary: Equatable, Sendable {
    /// A member's value.
    enum Value: Equatable, Sendable {
        case integer(Int)
        case decimal(Double)
        case string(String)
        case token(String)
        case bytes
        case boolean(Bool)
        case innerList
    }

    /// The members in order; a repeated key keeps its last value (§4.2.2).
    private(set) var members: [(key: String, value: Value)] = []

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.members.elementsEqual(rhs.members) { $0.key == $1.key && $0.value == $1.value }
    }

    /// The value of `key`, if present.
    subscript(key: String) -> Value? {
        members.last { $0.key == key }?.value
    }

    /// Parses `field`, or returns nil when it is not a valid dictionary (RFC 8941 §4.2: then the
    /// whole field is ignored).
    init?(parsing field: String) {
        var parser = Parser(bytes: Array(field.utf8))
        parser.skip(UInt8(ascii: " "))
        while !parser.isAtEnd {
            guard let key = parser.key() else { return nil }
            let value: Value
            if parser.consume(UInt8(ascii: "=")) {
                if parser.consume(UInt8(ascii: "(")) {
                    guard parser.innerListRest() else { return nil }
                    value = .innerList
                } else {
                    guard let item = parser.bareItem() else { return nil }
                    value = item
                }
            } else {
                value = .boolean(true)
            }
            guard parser.parameters() else { return nil }
            members.append((key, value))
            parser.skipWhitespace()
            if parser.isAtEnd { break }
            guard parser.consume(UInt8(ascii: ",")) else { return nil }
            parser.skipWhitespace()
            if parser.isAtEnd { return nil }  // a trailing comma
        }
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        var isAtEnd: Bool { index == bytes.count }
        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func consume(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            index += 1
            return true
        }

        mutating func skip(_ byte: UInt8) {
            while consume(byte) {}
        }

        mutating func skipWhitespace() {
            while peek == UInt8(ascii: " ") || peek == UInt8(ascii: "\t") { index += 1 }
        }

        /// `key = ( lcalpha / "*" ) *( lcalpha / DIGIT / "_" / "-" / "." / "*" )`.
        mutating func key() -> String? {
            guard let first = peek, first.isLowercaseLetter || first == UInt8(ascii: "*") else { return nil }
            let start = index
            while let byte = peek, byte.isLowercaseLetter || byte.isDigit || "_-.*".utf8.contains(byte) { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// `*( ";" *SP key [ "=" bare-item ] )`.
        mutating func parameters() -> Bool {
            while consume(UInt8(ascii: ";")) {
                skip(UInt8(ascii: " "))
                guard key() != nil else { return false }
                if consume(UInt8(ascii: "=")), bareItem() == nil { return false }
            }
            return true
        }

        /// The rest of an inner list after `(`: items with parameters separated by spaces, `)`,
        /// then the list's parameters.
        mutating func innerListRest() -> Bool {
            while true {
                skip(UInt8(ascii: " "))
                if consume(UInt8(ascii: ")")) { return parameters() }
                guard bareItem() != nil, parameters() else { return false }
                guard peek == UInt8(ascii: " ") || peek == UInt8(ascii: ")") else { return false }
            }
        }

        mutating func bareItem() -> Value? {
            guard let first = peek else { return nil }
            switch first {
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return number()
            case UInt8(ascii: "\""):
                return string()
            case UInt8(ascii: ":"):
                index += 1
                while let byte = peek, byte.isLetter || byte.isDigit || "+/=".utf8.contains(byte) { index += 1 }
                return consume(UInt8(ascii: ":")) ? .bytes : nil
            case UInt8(ascii: "?"):
                index += 1
                if consume(UInt8(ascii: "0")) { return .boolean(false) }
                return consume(UInt8(ascii: "1")) ? .boolean(true) : nil
            case _ where first.isLetter || first == UInt8(ascii: "*"):
                let start = index
                while let byte = peek, FieldValueScanner.isTokenCharacter(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "/") {
                    index += 1
                }
                return .token(String(decoding: bytes[start..<index], as: UTF8.self))
            default:
                return nil
            }
        }

        /// An integer (at most 15 digits) or a decimal (at most 12 integer and 3 fraction digits).
        private mutating func number() -> Value? {
            let negative = consume(UInt8(ascii: "-"))
            let start = index
            while let byte = peek, byte.isDigit { index += 1 }
            let integerDigits = index - start
            guard integerDigits > 0 else { return nil }
            let integerPart = bytes[start..<index].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            guard consume(UInt8(ascii: ".")) else {
                guard integerDigits <= 15 else { return nil }
                return .integer(negative ? -integerPart : integerPart)
            }
            let fractionStart = index
            while let byte = peek, byte.isDigit { index += 1 }
            let fractionDigits = index - fractionStart
            guard integerDigits <= 12, (1...3).contains(fractionDigits) else { return nil }
            let fraction = bytes[fractionStart..<index].reduce(0.0) { $0 * 10 + Double($1 - UInt8(ascii: "0")) }
            let value = Double(integerPart) + fraction / [10.0, 100.0, 1000.0][fractionDigits - 1]
            return .decimal(negative ? -value : value)
        }

        /// A string: printable ASCII, with `\"` and `\\` escapes.
        private mutating func string() -> Value? {
            index += 1
            var content: [UInt8] = []
            while let byte = peek {
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return .string(String(decoding: content, as: UTF8.self))
                case UInt8(ascii: "\\"):
                    guard let escaped = peek, escaped == UInt8(ascii: "\"") || escaped == UInt8(ascii: "\\") else { return nil }
                    index += 1
                    content.append(escaped)
                case 0x20...0x7E:
                    content.append(byte)
                default:
                    return nil
                }
            }
            return nil
        }
    }
}

extension UInt8 {
    fileprivate var isLowercaseLetter: Bool { self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z") }
    fileprivate var isLetter: Bool { isLowercaseLetter || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z")) }
}
