import JSONCore
import Testing

@Suite struct JSONWriterTests {
    private func written(_ body: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter()
        body(&writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test func escapesToASCIIOnly() {
        let text = written { $0.string("a\"b\\c\n\t\u{1}\u{7F}é€😀") }
        #expect(text == #""a\"b\\c\n\t\u0001"# + "\u{7F}" + #"\u00e9\u20ac\ud83d\ude00""#)
        #expect(text.utf8.allSatisfy { $0 < 0x80 })
    }

    @Test func writtenStringsParseBack() throws {
        let samples = ["", "plain", "é", "e\u{301}", "😀x", "\u{FFFD}", "\u{0}\u{1F}", "quote\"slash\\"]
        for sample in samples {
            let text = written { $0.string(sample) }
            let node = try JSONParser.parse(Array(text.utf8))
            #expect(node.stringValue.map { Array($0.utf8) } == Array(sample.utf8))
        }
    }

    @Test(arguments: [
        (1.0, "1.0"), (-0.0, "-0.0"), (0.5, "0.5"), (1e-5, "1e-05"), (1e21, "1e+21"), (123456789.0, "123456789.0"),
        (Double.nan, "\"NaN\""), (Double.infinity, "\"Infinity\""), (-Double.infinity, "\"-Infinity\""),
        (5e-324, "5e-324"), (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"),
    ])
    func writesDoublesThatStayDoubles(value: Double, expected: String) throws {
        let text = written { $0.double(value) }
        #expect(text == expected)
        if value.isFinite {
            let number = try #require(try JSONParser.parse(Array(text.utf8)).numberValue)
            #expect(!number.isIntegerLiteral)
            #expect(number.doubleValue.bitPattern == value.bitPattern)
        }
    }

    @Test func writesIntegersExactly() {
        #expect(written { $0.integer(Int64.min) } == "-9223372036854775808")
        #expect(written { $0.integer(Int64.max) } == "9223372036854775807")
        #expect(written { $0.integer(0) } == "0")
        #expect(written { $0.integer(UInt64.max) } == "18446744073709551615")
        #expect(written { $0.integer(Int32.min) } == "-2147483648")
        #expect(written { $0.integer(-12_340) } == "-12340")
        #expect(written { $0.integer(Int.max) } == "9223372036854775807")
    }
}
