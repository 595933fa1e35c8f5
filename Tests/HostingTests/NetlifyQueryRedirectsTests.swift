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
        # bundlepress: begin (rewritten by each build; edit outside this block)
        /bundles/by-city  city=:v0  year=:v1  /bundles/by-city/city/:v0/year/:v1  200
        /bundles/by-tag  tag=:v0  /bundles/by-tag/tag/:v0  200
        # /bundles/odd: a parameter name that _redirects cannot match; use the path form
        # bundlepress: end

        """

    @Test func eachParameterIsMatchedAndRewrittenToThePath() {
        #expect(Self.redirects.block == Self.block)
    }

    /// The site's own rules stay: the block goes on top of a file without it, replaces itself
    /// where it is, and goes away (with the file, when it held nothing else) without rules.
    @Test func theBlockIsMergedIntoTheSitesOwnFile() {
        let own = "/old /new 301\n/* /index.html 200\n"
        #expect(Self.redirects.merged(into: nil) == Self.block)
        #expect(Self.redirects.merged(into: own) == Self.block + "\n" + own)
        let stale = "/first /x 301\n" + Self.block.replacingOccurrences(of: "by-tag", with: "gone") + own
        #expect(Self.redirects.merged(into: stale) == "/first /x 301\n" + Self.block + own)
        let none = NetlifyQueryRedirects(mappings: [])
        #expect(none.merged(into: nil) == nil)
        #expect(none.merged(into: own) == own)
        #expect(none.merged(into: Self.block + "\n" + own) == own)
        #expect(none.merged(into: Self.block) == nil)
    }
}
