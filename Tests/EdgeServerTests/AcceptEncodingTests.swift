import Testing
@testable import EdgeServer

@Suite struct AcceptEncodingTests {
    @Test(arguments: [
        // No field: identity, what curl without --compressed expects.
        (nil, true, ContentCoding.identity),
        ("gzip", true, .gzip),
        ("gzip", false, .identity),
        ("GZIP", true, .gzip),
        ("x-gzip", true, .gzip),
        ("gzip, deflate, br, zstd", true, .gzip),
        ("br", true, .identity),
        ("identity", true, .identity),
        ("", true, .identity),
        ("gzip;q=0", true, .identity),
        ("gzip; q=0.000", true, .identity),
        ("gzip;q=0.5, identity", true, .identity),
        ("gzip;q=0.5", true, .gzip),
        ("identity;q=0.1, gzip;q=0.2", true, .gzip),
        ("*", true, .gzip),
        ("*;q=0, gzip", true, .gzip),
        ("*;q=0, identity", true, .identity),
        ("gzip;q=abc", true, .identity),
        ("gzip;q=1.5", true, .identity),
        (" gzip ; Q=1 ", true, .gzip),
        ("br, X-GZIP ; q = 0.5", true, .gzip),
        ("gzip;q=", true, .identity),
        (";q=1, identity;q=0.5", true, .identity),
    ] as [(String?, Bool, ContentCoding)])
    func selects(field: String?, gzipAvailable: Bool, expected: ContentCoding) {
        #expect(AcceptEncoding(fieldValues: field.map { [$0] } ?? []).select(gzipAvailable: gzipAvailable) == expected)
    }

    @Test(arguments: [
        ("identity;q=0", false),
        ("*;q=0", true),
        ("*;q=0", false),
        ("gzip;q=0, identity;q=0", true),
        ("br, identity;q=0", true),
    ])
    func nothingAcceptable(field: String, gzipAvailable: Bool) {
        #expect(AcceptEncoding(fieldValues: [field]).select(gzipAvailable: gzipAvailable) == nil)
    }

    @Test func identityExcludedButGzipAvailable() {
        #expect(AcceptEncoding(fieldValues: ["gzip", "identity;q=0"]).select(gzipAvailable: true) == .gzip)
    }

    @Test(arguments: [("0", 0), ("1", 1000), ("0.5", 500), ("0.123", 123), ("1.000", 1000), ("1.", 1000)] as [(Substring, Int)])
    func qvalues(text: Substring, thousandths: Int) {
        #expect(AcceptEncoding.qvalue(text.utf8) == thousandths)
    }

    @Test(arguments: ["2", "0.1234", "-1", "", "1.001", ".5", "0,5"] as [Substring])
    func invalidQvalues(text: Substring) {
        #expect(AcceptEncoding.qvalue(text.utf8) == nil)
    }
}
