import Testing
@testable import Hosting

/// The `_redirects` block that maps the extension's `?param=value` URLs to the stable paths.
@Suite struct NetlifyQueryRedirectsTests {
    static let redirects = NetlifyQueryRedirects(mappings: [
        ("/bundles/by-city", ["city", "year"]),
        ("/bundles/by-tag", ["tag"]),
        ("/bundles/odd", ["a b"]),
    ])
    static let block = """
        \(MarkedBlock.startLine)
        /bundles/by-city  city=:v0  year=:v1  /bundles/by-city/city/:v0/year/:v1  200
        /bundles/by-tag  tag=:v0  /bundles/by-tag/tag/:v0  200
        # /bundles/odd: a parameter name that _redirects cannot match; use the path form
        \(MarkedBlock.endLine)

        """

    @Test func eachParameterIsMatchedAndRewrittenToThePath() throws {
        #expect(try Self.redirects.placed(in: nil) == Self.block)
    }

    /// The site's own rules stay: the block goes on top of a file without it, replaces itself
    /// where it is, and goes away (with the file, when it held nothing else) without rules.
    @Test func theBlockIsMergedIntoTheSitesOwnFile() throws {
        let own = "/old /new 301\n/* /index.html 200\n"
        #expect(try Self.redirects.placed(in: own) == Self.block + "\n" + own)
        let stale = "/first /x 301\n" + Self.block.replacingOccurrences(of: "by-tag", with: "gone") + own
        #expect(try Self.redirects.placed(in: stale) == "/first /x 301\n" + Self.block + own)
        let none = NetlifyQueryRedirects(mappings: [])
        #expect(try none.placed(in: nil) == nil)
        #expect(try none.placed(in: own) == own)
        #expect(try none.placed(in: Self.block + "\n" + own) == own)
        #expect(try none.placed(in: Self.block) == nil)
        #expect(try none.placed(in: own + "\n" + Self.block) == own)
    }
}
