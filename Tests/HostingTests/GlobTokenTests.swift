import Testing
@testable import Hosting

/// Wildcard segments split into the tokens fnmatch(3) reads in the C locale.
@Suite struct GlobTokenTests {
    static func literals(_ text: String) -> [GlobToken] { text.utf8.map(GlobToken.literal) }

    @Test func readsEveryKindOfToken() throws {
        #expect(GlobToken.parse("*.bundle") == [.anyRun] + Self.literals(".bundle"))
        #expect(GlobToken.parse("a?\\*[xy]") == Self.literals("a") + [.anyByte] + Self.literals("*") + [
            .byteSet(ByteSet(negated: false, ranges: [UInt8(ascii: "x")...UInt8(ascii: "x"), UInt8(ascii: "y")...UInt8(ascii: "y")])),
        ])
        #expect(GlobToken.parse("[!.]*") == [.byteSet(ByteSet(negated: true, ranges: [UInt8(ascii: ".")...UInt8(ascii: ".")])), .anyRun])
        #expect(GlobToken.parse("") == [])
    }

    @Test(arguments: ["a\\", "[[:alpha:]]", "[b-a]", "x[yz", "caf[é]"])
    func refusesWhatTheRenderersDoNotFollow(text: String) {
        #expect(GlobToken.parse(text) == nil)
    }

    @Test(arguments: [
        ("ab*cd", "ab", "cd"), ("front.*.bundle", "front.", ".bundle"), ("abc", "abc", "abc"),
        ("*", "", ""), ("?x", "", "x"), ("x[ab]", "x", ""), ("\\*a*", "*a", ""),
    ])
    func literalPrefixAndSuffixStopAtTheWildcards(text: String, prefix: String, suffix: String) throws {
        let tokens = try #require(GlobToken.parse(text))
        #expect(GlobToken.literalPrefix(tokens) == Array(prefix.utf8))
        #expect(GlobToken.literalSuffix(tokens) == Array(suffix.utf8))
    }
}
