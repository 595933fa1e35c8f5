import Testing

@testable import EdgeServer

/// RFC 8941 dictionaries, as `CDN-Cache-Control` uses them.
@Suite struct StructuredDictionaryTests {
    @Test func parsesEveryKindOfMember() throws {
        let dictionary = try #require(
            StructuredDictionary(parsing: "max-age=3600, no-store, a=?0, b=1.5;p=x, c=\"q\\\"s\", d=tok/en:1, e=:aGk=:, f=(1 \"x\");q, *g=-7"))
        #expect(dictionary["max-age"] == .integer(3600))
        #expect(dictionary["no-store"] == .boolean(true))
        #expect(dictionary["a"] == .boolean(false))
        #expect(dictionary["b"] == .decimal(1.5))
        #expect(dictionary["c"] == .string("q\"s"))
        #expect(dictionary["d"] == .token("tok/en:1"))
        #expect(dictionary["e"] == .bytes)
        #expect(dictionary["f"] == .innerList)
        #expect(dictionary["*g"] == .integer(-7))
    }

    @Test func aRepeatedKeyKeepsItsLastValue() {
        #expect(StructuredDictionary(parsing: "max-age=1, max-age=2")?["max-age"] == .integer(2))
    }

    @Test(arguments: [
        "Max-Age=1", "a=1,", "a=1,,b", "a=&", "a=1 b=2", "a=1234567890123456", "a=1.2345", "a=\"open", "a=(1 2", "a=?2", "=1",
    ])
    func rejectsInvalidDictionaries(value: String) {
        #expect(StructuredDictionary(parsing: value) == nil)
    }
}
