import Testing
@testable import SitePolicy

@Suite struct PathPatternTests {
    @Test(arguments: [
        ("/bundles/**", "/bundles/a.bundle", true),
        ("/bundles/**", "/bundles/x/y/z.json", true),
        ("/bundles/**", "/bundles", true),
        ("/bundles/**", "/other/a.bundle", false),
        ("/bundles/*", "/bundles/a.bundle", true),
        ("/bundles/*", "/bundles/x/a.bundle", false),
        ("*.html", "/index.html", true),
        ("*.html", "/docs/deep/a.html", true),
        ("*.html", "/index.htm", false),
        ("**/*.js", "/app.js", true),
        ("**/*.js", "/static/app.js", true),
        ("/*.js", "/static/app.js", false),
        ("/bundles/?.json", "/bundles/a.json", true),
        ("/bundles/?.json", "/bundles/ab.json", false),
        ("/bundles/[ab].json", "/bundles/b.json", true),
        ("/bundles/[ab].json", "/bundles/c.json", false),
        ("/bundles/*", "/bundles/.hidden", false),
        ("/bundles/.*", "/bundles/.hidden", true),
        ("/bundles/", "/bundles", true),
        ("/", "/", true),
        ("/**", "/", true),
        ("/**", "/any/thing", true),
        ("/a/**/z", "/a/z", true),
        ("/a/**/z", "/a/b/c/z", true),
        ("/a/**/z", "/a/b/c/y", false),
    ])
    func matching(pattern: String, path: String, expected: Bool) throws {
        #expect(try PathPattern(pattern).matches(path) == expected)
    }

    @Test func relativePatternsMatchAtAnyDepth() throws {
        #expect(try PathPattern("*.html").segments == [.anyDepth, .wildcard("*.html")])
        #expect(try PathPattern("**/*.js").segments == [.anyDepth, .wildcard("*.js")])
        #expect(try PathPattern("/bundles/manifest.json").segments == [.literal("bundles"), .literal("manifest.json")])
    }

    @Test(arguments: [
        ("", "cannot be empty"),
        ("/bundles/a**", "** must be a whole segment"),
        ("/a\u{0}b", "control characters"),
        ("/a\nb", "control characters"),
    ])
    func invalidPatterns(pattern: String, fragment: String) {
        #expect {
            try PathPattern(pattern)
        } throws: { error in
            (error as? PathPatternError)?.description.contains(fragment) == true
        }
    }
}
