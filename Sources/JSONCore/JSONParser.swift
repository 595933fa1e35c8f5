/// A syntax error in JSON text: what was found, what was expected, and where (a byte offset
/// into the parsed buffer; use ``SourceMap`` to turn it into a line and column).
public struct JSONSyntaxError: Error, Sendable, Equatable {
    public var offset: Int
    public var message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }
}

/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// It rejects what `JSON.parse` rejects, plus what Firestore data cannot hold: duplicate keys in
/// an object, invalid UTF-8, and lone UTF-16 surrogates in `\u` escapes. Nesting is limited to
/// ``maximumDepth`` so hostile input gives an error, not a stack overflow.
public struct JSONParser {
    /// Deeper nesting than this is an error. Firestore itself allows 20 levels of maps.
    public static let maximumDepth = 256
    /// Up to this many members an object's keys are checked for a duplicate one by one; a larger
    /// object (a state file lists 100,000 documents in one) keeps them in a set, so the check does
    /// not take quadratic time.
    static let linearKeyCheckLimit = 32

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index: Int
    private var depth = 0

    private init(bytes: UnsafeBufferPointer<UInt8>, start: Int) {
        self.bytes = bytes
        self.index = start
    }

    /// Parses exactly one JSON value, allowing only whitespace around it.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONSyntaxError) -> JSONNode in try parse(buffer) }
        }
        return try result.get()
    }

    /// Parses exactly one JSON value, allowing only whitespace around it.
    public static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: buffer, start: 0)
        let node = try parser.parseTopLevel()
        parser.skipWhitespace()
        if parser.index < buffer.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the JSON value", at: parser.index)
        }
        return node
    }

    /// The value of the JSON string literal whose opening quote is at `start` of `buffer`, and
    /// the index just past its closing quote; nil when there is no valid literal there (as
    /// ``parse(_:)-(UnsafeBufferPointer<UInt8>)`` would say).
    public static func string(in buffer: UnsafeBufferPointer<UInt8>, at start: Int) -> (value: String, end: Int)? {
        guard start < buffer.count, buffer[start] == UInt8(ascii: "\"") else { return nil }
        var parser = JSONParser(bytes: buffer, start: start)
        guard let value = try? parser.parseString() else { return nil }
        return (value, parser.index)
    }

    /// Parses a sequence of JSON values separated by whitespace (JSON Lines or concatenated
    /// JSON), handing each to `body`.
    public static func parseSequence(
        _ buffer: UnsafeBufferPointer<UInt8>,
        _ body: (JSONNode) throws -> Void
    ) throws {
        var parser = JSONParser(bytes: buffer, start: 0)
        parser.skipWhitespace()
        while parser.index < buffer.count {
            try body(try parser.parseTopLevel())
            parser.skipWhitespace()
        }
    }

    // MARK: - Grammar

    private mutating func parseTopLevel() throws(JSONSyntaxError) -> JSONNode {
        skipWhitespace()
        if index == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            throw error("a byte order mark (BOM); save the file as UTF-8 without BOM", at: 0)
        }
        return try parseValue()
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
        skipWhitespace()
        guard index < bytes.count else {
            throw error("unexpected end of input; expected a JSON value", at: index)
        }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"): return JSONNode(.object(try parseObject()), offset: start)
        case UInt8(ascii: "["): return JSONNode(.array(try parseArray()), offset: start)
        case UInt8(ascii: "\""): return JSONNode(.string(try parseString()), offset: start)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return JSONNode(.bool(true), offset: start)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return JSONNode(.bool(false), offset: start)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return JSONNode(.null, offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(.number(try parseNumber()), offset: start)
        default:
            throw error("unexpected \(describeCurrent()); expected a JSON value", at: index)
        }
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw error("nesting deeper than \(Self.maximumDepth) levels", at: index)
        }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONObject {
        try enter()
        defer { depth -= 1 }
        index += 1  // {
        var members: [JSONObject.Member] = []
        var keys: Set<[UInt8]>?
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return JSONObject(members: members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()); expected a string key in an object", at: index)
            }
            let keyOffset = index
            let key = try parseString()
            let isDuplicate: Bool
            if keys != nil {
                isDuplicate = !keys!.insert(Array(key.utf8)).inserted
            } else {
                isDuplicate = members.contains { $0.key.utf8.elementsEqual(key.utf8) }
                if members.count == Self.linearKeyCheckLimit { keys = Set(members.map { Array($0.key.utf8) } + [Array(key.utf8)]) }
            }
            if isDuplicate {
                throw error("duplicate key \"\(key)\" in an object", at: keyOffset)
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()); expected ':' after an object key", at: index)
            }
            index += 1
            let value = try parseValue()
            members.append(JSONObject.Member(key: key, keyOffset: keyOffset, value: value))
            skipWhitespace()
            guard index < bytes.count else {
                throw error("unexpected end of input; expected ',' or '}' in an object", at: index)
            }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return JSONObject(members: members)
            } else {
                throw error("unexpected \(describeCurrent()); expected ',' or '}' in an object", at: index)
            }
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> [JSONNode] {
        try enter()
        defer { depth -= 1 }
        index += 1  // [
        var elements: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return elements
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else {
                throw error("unexpected end of input; expected ',' or ']' in an array", at: index)
            }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return elements
            } else {
                throw error("unexpected \(describeCurrent()); expected ',' or ']' in an array", at: index)
            }
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let quote = index
        index += 1
        let start = index
        // Fast path: no escapes. Bytes all below 0x80 are ASCII, valid UTF-8 as they are: only
        // others need the (generic, costlier) validation.
        var seen: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                if seen < 0x80 { return String(decoding: slice, as: UTF8.self) }
                guard let string = String(validating: slice, as: UTF8.self) else {
                    throw error("invalid UTF-8 in a string", at: quote)
                }
                return string
            }
            seen |= byte
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 {
                throw error("a raw control character (0x\(hex(byte))) in a string; escape it", at: index)
            }
            index += 1
        }
        guard index < bytes.count else {
            throw error("unterminated string", at: quote)
        }
        // Slow path: decode escapes into a byte buffer.
        var decoded = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let string = String(validating: decoded, as: UTF8.self) else {
                    throw error("invalid UTF-8 in a string", at: quote)
                }
                return string
            case UInt8(ascii: "\\"):
                try parseEscape(into: &decoded)
            case 0..<0x20:
                throw error("a raw control character (0x\(hex(byte))) in a string; escape it", at: index)
            default:
                decoded.append(byte)
                index += 1
            }
        }
        throw error("unterminated string", at: quote)
    }

    private mutating func parseEscape(into decoded: inout [UInt8]) throws(JSONSyntaxError) {
        let escapeStart = index
        index += 1
        guard index < bytes.count else { throw error("unterminated string", at: escapeStart) }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): decoded.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): decoded.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): decoded.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try parseHex4(escapeStart: escapeStart))
            if (0xD800...0xDBFF).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("a lone UTF-16 high surrogate \\u\(hex16(scalar)); Firestore strings must be valid Unicode", at: escapeStart)
                }
                index += 2
                let low = UInt32(try parseHex4(escapeStart: escapeStart))
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("a high surrogate \\u\(hex16(scalar)) not followed by a low surrogate", at: escapeStart)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("a lone UTF-16 low surrogate \\u\(hex16(scalar)); Firestore strings must be valid Unicode", at: escapeStart)
            }
            decoded.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar)!)!)
        default:
            throw error("an invalid escape '\\\(printable(byte))' in a string", at: escapeStart)
        }
    }

    private mutating func parseHex4(escapeStart: Int) throws(JSONSyntaxError) -> UInt16 {
        guard index + 4 <= bytes.count else { throw error("an incomplete \\u escape", at: escapeStart) }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("an invalid \\u escape (expected 4 hex digits)", at: escapeStart)
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONNumber {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw error("an invalid number (expected a digit)", at: start)
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw error("an invalid number (leading zero)", at: start)
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("an invalid number (expected a digit after '.')", at: start)
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("an invalid number (expected a digit in the exponent)", at: start)
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let literal = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        return JSONNumber(literal: literal)
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let start = index
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        guard index + expected.count <= bytes.count,
              UnsafeBufferPointer(rebasing: bytes[index..<(index + expected.count)]).elementsEqual(expected)
        else {
            throw error("unexpected \(describeCurrent()); expected a JSON value", at: start)
        }
        index += expected.count
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return
            }
        }
    }

    // MARK: - Error helpers

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x7F { return "'\(printable(byte))'" }
        return "byte 0x\(hex(byte))"
    }

    private func error(_ message: String, at offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset, message: message)
    }

    private func printable(_ byte: UInt8) -> String {
        String(UnicodeScalar(byte))
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    private func hex16(_ value: UInt32) -> String {
        hex(UInt8(value >> 8)) + hex(UInt8(value & 0xFF))
    }
}
