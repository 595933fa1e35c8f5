import JSONCore
import Testing

@Suite struct JSONParserTests {
    private func parse(_ text: String) throws -> JSONNode {
        try JSONParser.parse(Array(text.utf8))
    }

    private func syntaxError(_ text: String) -> JSONSyntaxError? {
        do {
            _ = try JSONParser.parse(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func parsesEveryKindWithOffsets() throws {
        let node = try parse(#" {"a": [1, -2.5e3, true, false, null, "x"], "b": {}} "#)
        let object = try #require(node.objectValue)
        #expect(node.offset == 1)
        #expect(object.keys == ["a", "b"])
        let array = try #require(object["a"]?.arrayValue)
        #expect(array.map(\.offset) == [8, 11, 19, 25, 32, 38])
        #expect(array[0].numberValue?.int64Value == 1)
        #expect(array[1].numberValue?.isIntegerLiteral == false)
        #expect(array[1].numberValue?.doubleValue == -2500)
        #expect(array[2].boolValue == true)
        #expect(array[4].isNull)
        #expect(array[5].stringValue == "x")
    }

    @Test func keepsIntegerLiteralsExact() throws {
        let node = try parse("[9223372036854775807, -9223372036854775808, 9223372036854775808, 1.0, 1e2]")
        let numbers = try #require(node.arrayValue).compactMap(\.numberValue)
        #expect(numbers[0].int64Value == Int64.max)
        #expect(numbers[1].int64Value == Int64.min)
        #expect(numbers[2].int64Value == nil)  // does not fit
        #expect(numbers[3].isIntegerLiteral == false)
        #expect(numbers[4].isIntegerLiteral == false)
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let node = try parse(#""a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00""#)
        #expect(node.stringValue == "a\"b\\c/d\u{8}\u{C}\n\r\té😀")
    }

    @Test func keysAreByteExact() throws {
        // NFC "é" and NFD "e\u0301" are different keys, not duplicates.
        let node = try parse("{\"\u{E9}\": 1, \"e\u{301}\": 2}")
        let object = try #require(node.objectValue)
        #expect(object.count == 2)
        #expect(object["\u{E9}"]?.numberValue?.literal == "1")
        #expect(object["e\u{301}"]?.numberValue?.literal == "2")
    }

    /// Past ``JSONParser/linearKeyCheckLimit`` members, keys are checked through a set: each
    /// duplicate is still found, at its offset, whichever member it repeats; byte-exact as ever.
    @Test(arguments: [0, 5, 31, 32, 33, 99_998])
    func duplicatesInLargeObjectsAreFound(repeating index: Int) throws {
        let members = (0..<100_000).map { "\"k\($0)\":\($0)" }
        let object = "{" + members.joined(separator: ",")
        #expect(try parse(object + "}").objectValue?.count == 100_000)
        let error = try #require(syntaxError(object + ",\"k\(index)\":0}"))
        #expect(error.offset == object.utf8.count + 1 && error.message == "duplicate key \"k\(index)\" in an object")
        let large = "{" + (0..<40).map { "\"k\($0)\":0" }.joined(separator: ",") + ",\"\u{E9}\":1,\"e\u{301}\":2}"
        #expect(try parse(large).objectValue?.count == 42)
    }

    @Test(arguments: [
        ("{\"a\":1,\"a\":2}", 7, "duplicate key"),
        ("[1,]", 3, "expected a JSON value"),
        ("{\"a\" 1}", 5, "expected ':'"),
        ("[01]", 1, "leading zero"),
        ("[1.]", 1, "after '.'"),
        ("\"abc", 0, "unterminated string"),
        ("\"\\ud800\"", 1, "lone UTF-16 high surrogate"),
        ("\"\\udc00\"", 1, "lone UTF-16 low surrogate"),
        ("\"a\u{1}\"", 2, "control character"),
        ("\"\\x\"", 1, "invalid escape"),
        ("{} x", 3, "after the JSON value"),
        ("", 0, "unexpected end of input"),
        ("nul", 0, "expected a JSON value"),
        ("\u{FEFF}{}", 0, "byte order mark"),
    ])
    func rejectsInvalidJSON(text: String, offset: Int, message: String) throws {
        let error = try #require(syntaxError(text))
        #expect(error.offset == offset)
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test func rejectsInvalidUTF8() throws {
        let error = try #require(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
        #expect(error.message.contains("invalid UTF-8"))
    }

    @Test func limitsNestingDepth() throws {
        let deep = String(repeating: "[", count: JSONParser.maximumDepth + 1) + String(repeating: "]", count: JSONParser.maximumDepth + 1)
        let error = try #require(syntaxError(deep))
        #expect(error.message.contains("nesting deeper"))
        let ok = String(repeating: "[", count: JSONParser.maximumDepth) + String(repeating: "]", count: JSONParser.maximumDepth)
        #expect(syntaxError(ok) == nil)
    }

    @Test func parsesSequences() throws {
        var values: [Int64] = []
        let bytes = Array("{\"n\":1}\n{\"n\":2}\n\n  {\"n\":3}".utf8)
        try bytes.withUnsafeBufferPointer { buffer in
            try JSONParser.parseSequence(buffer) { node in
                values.append(node.objectValue!["n"]!.numberValue!.int64Value!)
            }
        }
        #expect(values == [1, 2, 3])
    }

    @Test func mapsOffsetsToLinesAndColumns() {
        let text = "{\n  \"é\": [1,\n   x]\n}"
        let map = SourceMap(file: "f.json", bytes: Array(text.utf8))
        let offset = Array(text.utf8).firstIndex(of: UInt8(ascii: "x"))!
        #expect(map.location(ofOffset: offset) == SourceLocation(file: "f.json", line: 3, column: 4))
        let afterAccent = Array(text.utf8).firstIndex(of: UInt8(ascii: "["))!
        #expect(map.location(ofOffset: afterAccent).column == 8)  // "é" counts as one column
        let shifted = SourceMap(file: "f.ndjson", bytes: Array("{x}".utf8), firstLine: 41)
        #expect(shifted.location(ofOffset: 1).description == "f.ndjson:41:2")
    }
}
