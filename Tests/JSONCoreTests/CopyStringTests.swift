import JSONCore
import Testing

/// ``JSONWriter/copyString(_:at:)`` writes what decoding the literal with the parser and
/// writing it with ``JSONWriter/string(_:)`` writes, and gives up where the parser does.
@Suite struct CopyStringTests {
    /// What the parser and `string(_:)` make of the literal at the start of `json`: the bytes and
    /// where the literal ends, or nil.
    static func reference(_ json: [UInt8]) -> (bytes: [UInt8], end: Int)? {
        json.withUnsafeBufferPointer { json in
            guard let decoded = JSONParser.string(in: json, at: 0) else { return nil }
            var writer = JSONWriter()
            writer.string(decoded.value)
            return (writer.bytes, decoded.end)
        }
    }

    static func copied(_ json: [UInt8]) -> (bytes: [UInt8], end: Int)? {
        json.withUnsafeBufferPointer { json in
            var writer = JSONWriter()
            writer.raw("[")
            guard let end = writer.copyString(json, at: 0) else {
                // Nothing is written for a literal that is not one.
                return writer.bytes == Array("[".utf8) ? nil : ([], -1)
            }
            return (Array(writer.bytes.dropFirst()), end)
        }
    }

    static func check(_ literal: [UInt8], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let json = literal + Array(#",1]"#.utf8)
        let expected = reference(json)
        let got = copied(json)
        #expect(got?.bytes == expected?.bytes && got?.end == expected?.end, "\(literal)", sourceLocation: sourceLocation)
    }

    @Test func literalsOfEveryKind() {
        let literals: [String] = [
            #""""#, #""plain ASCII, with spaces / slashes""#, #""\"\\\/\b\f\n\r\t""#, #""caf\u00e9 \ud83d\ude00""#,
            #""\ud800""#, #""\udc00 low""#, #""\ud800\u0041""#, #""\u00""#, #""\x""#, #""na\#u{EF}ve caf\#u{E9} \#u{1F600} \#u{FFFF}""#,
            #""mixed na\#u{EF}ve \t and \u00e9""#, #""unterminated"#, #""ends in a backslash\"#, "\"raw\ttab\"", "\"raw\nnewline\"",
        ]
        for literal in literals { Self.check(Array(literal.utf8)) }
    }

    /// Every two-byte sequence, every three-byte one with a lead of 0xE0…0xEF (with continuation
    /// bytes and not), and the four-byte leads with each second byte: overlong forms, surrogates,
    /// code points past U+10FFFF, stray and missing continuation bytes.
    @Test func everyShortByteSequence() {
        for lead in UInt8(0x80)...0xFF {
            for second in UInt8.min...UInt8.max { Self.check([0x22, lead, second, 0x22]) }
        }
        for lead in UInt8(0xE0)...0xEF {
            for second in UInt8.min...UInt8.max {
                for third: UInt8 in [0x41, 0x7F, 0x80, 0xBF, 0xC0] { Self.check([0x22, lead, second, third, 0x22]) }
            }
        }
        for lead in UInt8(0xF0)...0xFF {
            for second in UInt8.min...UInt8.max {
                for rest: [UInt8] in [[0x80, 0x80], [0xBF, 0xBF], [0x80, 0x41], [0xC0, 0x80]] { Self.check([0x22, lead, second] + rest + [0x22]) }
            }
        }
    }
}
