import Testing
@testable import EdgeServer

@Suite struct RequestTargetTests {
    @Test(arguments: [
        ("/", "/", nil),
        ("/bundles/a.bundle", "/bundles/a.bundle", nil),
        ("/bundles/a.bundle?v=1&x", "/bundles/a.bundle", "v=1&x"),
        ("/bundles/?", "/bundles/", ""),
        ("//bundles//a.bundle", "/bundles/a.bundle", nil),
        ("/./bundles/./a.bundle", "/bundles/a.bundle", nil),
        ("/a%20b/%C3%A9.json", "/a b/é.json", nil),
        ("/%2e/x", "/x", nil),
        ("/docs/", "/docs/", nil),
        ("http://example.com/bundles/a.bundle?q", "/bundles/a.bundle", "q"),
        ("HTTPS://example.com", "/", nil),
        ("http://example.com?q=1", "/", "q=1"),
    ] as [(String, String, String?)])
    func accepted(target: String, path: String, query: String?) throws {
        let parsed = try RequestTarget(parsing: target)
        #expect(parsed.path == path)
        #expect(parsed.query == query)
    }

    @Test(arguments: [
        ("*", RequestTargetError.notOriginForm),
        ("bundles/a", .notOriginForm),
        ("/a#frag", .fragment),
        ("/../etc/passwd", .dotDotSegment),
        ("/bundles/%2e%2e/%2e%2e/etc/passwd", .dotDotSegment),
        ("/bundles/%2E%2E", .dotDotSegment),
        ("/bundles/..%2f..%2fetc%2fpasswd", .encodedSlash),
        ("/a%2Fb", .encodedSlash),
        ("/x%00.bundle", .controlCharacter),
        ("/x%0d%0aSet-Cookie:%20a", .controlCharacter),
        ("/a\\b", .backslash),
        ("/a%5cb", .backslash),
        ("/a%zz", .badPercentEncoding),
        ("/a%2", .badPercentEncoding),
        ("/a%", .badPercentEncoding),
        ("/%ff%fe", .notUTF8),
    ])
    func rejected(target: String, error: RequestTargetError) {
        #expect(throws: error) { try RequestTarget(parsing: target) }
    }
}
