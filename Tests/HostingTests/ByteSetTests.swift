import Testing
@testable import Hosting

private func byte(_ character: Character) -> UInt8 { character.asciiValue! }
private func range(_ low: Character, _ high: Character) -> ClosedRange<UInt8> { byte(low)...byte(high) }

/// Bracket expressions read the way glibc's fnmatch reads them, and the sets the regex writers
/// derive from them.
@Suite struct ByteSetTests {
    @Test(arguments: [
        ("[a-c]x", ByteSet(negated: false, ranges: [range("a", "c")]), 5),
        ("[!.]", ByteSet(negated: true, ranges: [range(".", ".")]), 4),
        ("[^ab]", ByteSet(negated: true, ranges: [range("a", "a"), range("b", "b")]), 5),
        // A `]` first is a member, and so is a `-` last; `\` escapes.
        ("[]a]", ByteSet(negated: false, ranges: [range("]", "]"), range("a", "a")]), 4),
        ("[a-]", ByteSet(negated: false, ranges: [range("a", "a"), range("-", "-")]), 4),
        ("[\\]]", ByteSet(negated: false, ranges: [range("]", "]")]), 4),
        ("[0-9a-f]", ByteSet(negated: false, ranges: [range("0", "9"), range("a", "f")]), 8),
    ])
    func readsABracketExpression(text: String, set: ByteSet, end: Int) throws {
        let (parsed, parsedEnd) = try #require(ByteSet.parseBracket(Array(text.utf8), at: 0))
        #expect(parsed == set)
        #expect(parsedEnd == end)
    }

    @Test func readsTheBracketWhereItStarts() throws {
        let (parsed, end) = try #require(ByteSet.parseBracket(Array("ab[xy]z".utf8), at: 2))
        #expect(parsed == ByteSet(negated: false, ranges: [range("x", "x"), range("y", "y")]))
        #expect(end == 6)
    }

    /// What the renderers cannot follow exactly is refused rather than guessed.
    @Test(arguments: ["[[:alpha:]]", "[[=a=]]", "[[.a.]]", "[z-a]", "[abc", "[", "[é]", "[a\\"])
    func refusesWhatTheRenderersDoNotFollow(text: String) {
        #expect(ByteSet.parseBracket(Array(text.utf8), at: 0) == nil)
    }

    @Test func removingBytesSplitsThePositiveRanges() {
        let set = ByteSet(negated: false, ranges: [range("a", "e")])
        #expect(set.removing([byte("c")]) == ByteSet(negated: false, ranges: [range("a", "b"), range("d", "e")]))
        #expect(set.removing([byte("a"), byte("e")]) == ByteSet(negated: false, ranges: [range("b", "d")]))
        #expect(set.removing([byte("z")]) == set)
        #expect(!set.isEmpty)
        #expect(ByteSet(negated: false, ranges: [range(".", ".")]).removing([byte(".")]).isEmpty)
    }

    @Test func removingBytesFromANegatedSetListsThem() {
        let set = ByteSet(negated: true, ranges: [range("a", "a")])
        let removed = set.removing([byte("."), byte("/")])
        #expect(removed == ByteSet(negated: true, ranges: [range("a", "a"), range(".", "."), range("/", "/")]))
        #expect(!removed.isEmpty)
        #expect(!ByteSet(negated: true, ranges: []).isEmpty)
    }
}
