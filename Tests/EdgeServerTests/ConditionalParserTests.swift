import Testing

@testable import EdgeServer

@Suite struct EntityTagTests {
    @Test(arguments: [
        ("\"abc\"", "abc", false), ("W/\"abc\"", "abc", true), ("\"\"", "", false), (" \"a,b\" ", "a,b", false),
        ("\"caf\u{e9}\"", "caf\u{e9}", false),
    ])
    func parsesOneTag(value: String, opaqueTag: String, isWeak: Bool) throws {
        let tag = try #require(EntityTag(value))
        #expect(tag.opaqueTag == opaqueTag)
        #expect(tag.isWeak == isWeak)
    }

    @Test(arguments: ["abc", "\"abc", "w/\"abc\"", "\"a\"b\"", "\"abc\" junk", "W/ \"abc\"", "\"a b\"", "", "*"])
    func rejectsMalformedTags(value: String) {
        #expect(EntityTag(value) == nil)
    }

    /// The check behind the `If-None-Match` shortcut accepts what the parser accepts, without
    /// surrounding whitespace.
    @Test(arguments: ["\"abc\"", "W/\"abc\"", "\"\"", "\"caf\u{e9}\"", "\"a,b\""])
    func recognisesExactlyOneTag(value: String) {
        #expect(EntityTag.isExactlyOneTag(value))
        #expect(EntityTag(value) != nil)
    }

    @Test(arguments: ["abc", "\"abc", "w/\"abc\"", "\"a\"b\"", "\"abc\" junk", "W/ \"abc\"", "\"a b\"", "", "*", "\"", "W/\"", "\"a\", \"b\"", " \"a\""])
    func refusesAnythingButExactlyOneTag(value: String) {
        #expect(!EntityTag.isExactlyOneTag(value))
    }

    /// The table of RFC 9110 §8.8.3.2.
    @Test(arguments: [
        ("W/\"1\"", "W/\"1\"", false, true), ("W/\"1\"", "W/\"2\"", false, false),
        ("W/\"1\"", "\"1\"", false, true), ("\"1\"", "\"1\"", true, true),
    ])
    func comparesStronglyAndWeakly(first: String, second: String, strong: Bool, weak: Bool) throws {
        let a = try #require(EntityTag(first))
        let b = try #require(EntityTag(second))
        #expect(a.matchesStrongly(b) == strong)
        #expect(b.matchesStrongly(a) == strong)
        #expect(a.matchesWeakly(b) == weak)
    }

    @Test func formatsAndValidatesBuiltTags() {
        #expect(EntityTag(opaqueTag: "3f2a")?.description == "\"3f2a\"")
        #expect(EntityTag(opaqueTag: "3f2a", isWeak: true)?.description == "W/\"3f2a\"")
        #expect(EntityTag(opaqueTag: "a\"b") == nil)
        #expect(EntityTag(opaqueTag: "a b") == nil)
    }
}

@Suite struct EntityTagConditionTests {
    @Test func parsesStarAndLists() throws {
        #expect(EntityTagCondition(" * ") == .any)
        let tags = ["\"a\"", "W/\"b\"", "\"c,d\""].compactMap { EntityTag($0) }
        #expect(EntityTagCondition("\"a\", W/\"b\",\"c,d\"") == .tags(tags))
        #expect(EntityTagCondition(" , \"a\" ,, W/\"b\", \"c,d\" ,") == .tags(tags))
    }

    @Test(arguments: ["\"a\", b", "\"a\" \"b\"", "*, \"a\"", "\"a", "W/"])
    func invalidListsMatchNothing(value: String) throws {
        let current = try #require(EntityTag("\"a\""))
        #expect(EntityTagCondition(value) == .tags([]))
        #expect(!EntityTagCondition(value).matches(current, strong: false))
    }

    @Test func matchesWithTheRequestedComparison() throws {
        let strong = try #require(EntityTag("\"a\""))
        #expect(EntityTagCondition("W/\"a\"").matches(strong, strong: false))
        #expect(!EntityTagCondition("W/\"a\"").matches(strong, strong: true))
        #expect(EntityTagCondition("\"x\", \"a\"").matches(strong, strong: true))
        #expect(EntityTagCondition("*").matches(nil, strong: true))
        #expect(!EntityTagCondition("\"a\"").matches(nil, strong: false))
    }
}

@Suite struct HTTPDateTests {
    /// RFC 9110 §5.6.7's example in its three forms.
    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "  Sun, 06 Nov 1994 08:49:37 GMT\t"])
    func parsesAllThreeForms(value: String) {
        #expect(HTTPDate(value) == HTTPDate(secondsSince1970: 784_111_777))
    }

    @Test(arguments: [
        (Int64(784_111_777), "Sun, 06 Nov 1994 08:49:37 GMT"), (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
        (1_709_164_800, "Thu, 29 Feb 2024 00:00:00 GMT"), (4_102_444_799, "Thu, 31 Dec 2099 23:59:59 GMT"),
    ])
    func formatsIMFFixdateAndParsesItBack(seconds: Int64, text: String) {
        #expect(HTTPDate(secondsSince1970: seconds).imfFixdate == text)
        #expect(HTTPDate(text)?.secondsSince1970 == seconds)
    }

    /// RFC 9110 §5.6.7: a two-digit year that puts the date more than 50 years after its receipt
    /// means the most recent past year with the same last two digits; otherwise it is the date
    /// within those 50 years.
    @Test(arguments: [
        // Received on 28 Nov 2026 at 12:00:00: dates up to 28 Nov 2076 12:00:00 are ahead.
        ("Sat, 28 Nov 2026 12:00:00 GMT", "Thursday, 01-Jan-70 00:00:00 GMT", "Wed, 01 Jan 2070 00:00:00 GMT"),
        ("Sat, 28 Nov 2026 12:00:00 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT"),
        ("Sat, 28 Nov 2026 12:00:00 GMT", "Saturday, 01-Jan-00 00:00:00 GMT", "Sat, 01 Jan 2000 00:00:00 GMT"),
        ("Sat, 28 Nov 2026 12:00:00 GMT", "Monday, 01-Jan-77 00:00:00 GMT", "Sat, 01 Jan 1977 00:00:00 GMT"),
        ("Sat, 28 Nov 2026 12:00:00 GMT", "Saturday, 28-Nov-76 12:00:00 GMT", "Sat, 28 Nov 2076 12:00:00 GMT"),
        ("Sat, 28 Nov 2026 12:00:00 GMT", "Sunday, 28-Nov-76 12:00:01 GMT", "Sun, 28 Nov 1976 12:00:01 GMT"),
        // Received in 1994: the same digits name other years.
        ("Sun, 06 Nov 1994 08:49:37 GMT", "Thursday, 01-Jan-70 00:00:00 GMT", "Thu, 01 Jan 1970 00:00:00 GMT"),
        ("Sun, 06 Nov 1994 08:49:37 GMT", "Friday, 01-Jan-44 00:00:00 GMT", "Fri, 01 Jan 2044 00:00:00 GMT"),
        ("Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 31-Dec-44 23:59:59 GMT", "Sun, 31 Dec 1944 23:59:59 GMT"),
        // Received in 2090: 10 is 2110, 20 years ahead, not 2010, 80 years back.
        ("Sun, 01 Jan 2090 00:00:00 GMT", "Saturday, 01-Jan-10 00:00:00 GMT", "Wed, 01 Jan 2110 00:00:00 GMT"),
    ])
    func readsTwoDigitYearsByTheirDistanceFromReceipt(received: String, value: String, meaning: String) throws {
        let receivedAt = try #require(HTTPDate(received))
        #expect(HTTPDate(value, receivedAt: receivedAt) == HTTPDate(meaning))
    }

    @Test func readsTwoDigitAsctimeDays() {
        #expect(HTTPDate("Wed Nov 16 08:49:37 1994") == HTTPDate("Wed, 16 Nov 1994 08:49:37 GMT"))
    }

    @Test(arguments: [
        "", "garbage", "sun, 06 Nov 1994 08:49:37 GMT", "Sun, 06 nov 1994 08:49:37 GMT", "Sun, 6 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT",
        "Wed, 29 Feb 2023 00:00:00 GMT", "Sun, 31 Apr 1994 00:00:00 GMT", "Sun, 06 Nov 1994 08:49:37 GMT junk",
        "Sun, 06 Nov 1994 08:49:37 GMT, Sun, 06 Nov 1994 08:49:37 GMT", "Sun Nov 6 08:49:37 1994", "1994-11-06T08:49:37Z",
    ])
    func rejectsAnythingButOneValidDate(value: String) {
        #expect(HTTPDate(value) == nil)
    }
}

@Suite struct RangeRequestTests {
    @Test(arguments: [
        ("bytes=0-99", [ByteRangeSpec.from(first: 0, last: 99)]), ("bytes=-10", [.suffix(length: 10)]),
        ("bytes=100-", [.from(first: 100, last: nil)]), ("BYTES=0-0", [.from(first: 0, last: 0)]),
        ("bytes=0-9, 20-29", [.from(first: 0, last: 9), .from(first: 20, last: 29)]),
        ("bytes=0-1,,-2", [.from(first: 0, last: 1), .suffix(length: 2)]),
    ])
    func parsesByteRanges(value: String, ranges: [ByteRangeSpec]) {
        #expect(RangeRequest(value)?.ranges == ranges)
    }

    @Test(arguments: ["bytes=5-1", "items=0-1", "bytes=", "bytes=a-b", "bytes=--1", "bytes=0-1;", "bytes 0-1", "bytes=-", "bytes=1"])
    func rejectsInvalidSyntax(value: String) {
        #expect(RangeRequest(value) == nil)
    }

    @Test(arguments: [
        (.from(first: 0, last: 99), 0..<100), (.from(first: 990, last: 2000), 990..<1000), (.from(first: 999, last: nil), 999..<1000),
        (.from(first: 1000, last: nil), nil), (.suffix(length: 10), 990..<1000), (.suffix(length: 5000), 0..<1000), (.suffix(length: 0), nil),
    ] as [(ByteRangeSpec, Range<Int>?)])
    func resolvesAgainstTheLength(range: ByteRangeSpec, expected: Range<Int>?) {
        #expect(range.resolved(forLength: 1000) == expected)
    }

    @Test func hugePositionsSaturateInsteadOfOverflowing() throws {
        let range = try #require(RangeRequest("bytes=99999999999999999999999-")?.ranges.first)
        #expect(range == .from(first: Int.max, last: nil))
        #expect(range.resolved(forLength: 1000) == nil)
        #expect(RangeRequest("bytes=0-99999999999999999999999")?.ranges.first?.resolved(forLength: 1000) == 0..<1000)
    }
}
