import Foundation
import SitePolicy
import Testing
@testable import Hosting
@testable import Publishing

/// The pattern translations behind the hosting files, checked against ``PathPattern/matches(_:)``
/// on every pair of a pattern and a path below.
@Suite struct HostingPatternTests {
    static let patterns = [
        "/bundles/**", "/bundles/*", "*.html", "**/*.js", "/*.js", "/bundles/?.json", "/bundles/[ab].json", "/bundles/[!a].json",
        "/bundles/.*", "/a/**/z", "/a/*/z", "/", "/**", HeaderPolicy.contentHashedBundlePattern.source, "/bundles/*.bundle",
        "/x/*[.a]", "/x/[.a]*", "/x/*?", "/x/\\*lit", "/x/a*b*c", "/x/[]]", "/x/[a-c-e]", "/x/[^.]z", "/x/*", "**/robots.txt",
        "/x/[[:alpha:]]", "/x/[a",
    ]

    static let paths = [
        "/", "/bundles", "/bundles/a.bundle", "/bundles/.hidden", "/bundles/a.json", "/bundles/b.json", "/bundles/ab.json",
        "/bundles/x/y.json", "/index.html", "/.html", "/a/.b.html", "/docs/a.html", "/app.js", "/static/app.js", "/a/z", "/a/b/z",
        "/a/b/c/z", "/bundles/front-page.439cfd870e789558.bundle", "/bundles/front-page.439CFD870E789558.bundle",
        "/bundles/old/front-page.439cfd870e789558.bundle", "/x/.a", "/x/a", "/x/aa", "/x/b.", "/x/.", "/x/*lit", "/x/xlit",
        "/x/abc", "/x/aXbYc", "/x/]", "/x/-", "/x/d", "/x/dz", "/x/.z", "/x/b", "/robots.txt", "/a/robots.txt", "/xrobots.txt",
    ]

    @Test(arguments: patterns)
    func regexMatchesExactlyThePathsThePatternMatches(source: String) throws {
        let pattern = try PathPattern(source)
        let regex = PathRegex(pattern)
        let compiled = try NSRegularExpression(pattern: regex.anchored)
        #expect(regex.isExact == !["/x/[[:alpha:]]", "/x/[a"].contains(source))
        for path in Self.paths where regex.isExact || pattern.matches(path) {
            #expect(compiled.isFound(in: path) == pattern.matches(path), "\(regex.anchored) \(path)")
        }
    }

    @Test func regexesAreReadable() throws {
        #expect(PathRegex(HeaderPolicy.contentHashedBundlePattern).anchored == #"^/bundles/[^./][^/]*\.[0-9a-f]{16}\.bundle$"#)
        #expect(PathRegex(try PathPattern("*.html")).anchored == #"^(?:/[^/]+)*/[^./][^/]*\.html$"#)
        #expect(PathRegex(try PathPattern("/bundles/**")).anchored == #"^/bundles(?:/.*)?$"#)
        #expect(PathRegex(try PathPattern("/**")).anchored == #"^/.*$"#)
        #expect(PathRegex(try PathPattern("/a\"b/c\\d")).anchored == #"^/a\x22b/c\x5cd$"#)
    }

    @Test(arguments: patterns)
    func headersPathMatchesEveryPathThePatternMatchesAndOnlyThoseWhenExact(source: String) throws {
        let pattern = try PathPattern(source)
        let splat = SplatPath(pattern)
        let headers = "\(splat.text)\n  X-Match: yes\n"
        let hosts: [any HostEvaluator] = [CloudflarePagesEvaluator(headers), NetlifyEvaluator(headers)]
        // Dot segments are outside what _headers can tell apart (they are never deployed), and
        // so is a directory itself, which a trailing /** matches and /* does not.
        for path in Self.paths where !path.contains("/.") && path != "/bundles" {
            for host in hosts {
                let matched = host.response(forPath: path)["x-match"] != nil
                if pattern.matches(path) { #expect(matched, "\(splat.text) \(path) \(host)") }
                if splat.isExact, host is CloudflarePagesEvaluator { #expect(matched == pattern.matches(path), "\(splat.text) \(path)") }
            }
        }
    }

    @Test(arguments: [
        ("/bundles/**", "/bundles/*", true), ("*.html", "/*.html", true), ("**/*.js", "/*.js", true), ("/**", "/*", true),
        ("/a/*/z", "/a/:p1/z", true), ("/bundles/manifest.json", "/bundles/manifest.json", true),
        ("/bundles/*.bundle", "/bundles/*.bundle", false), ("/bundles/?.json", "/bundles/*.json", false),
        ("/a/**/z", "/a/*z", false), ("**/robots.txt", "/*robots.txt", false), ("/x/[ab]/y", "/x/:p1/y", false),
        ("/a:b/c", "/a:b/c", false),
    ])
    func headersPaths(source: String, text: String, isExact: Bool) throws {
        let splat = SplatPath(try PathPattern(source))
        #expect(splat.text == text)
        #expect(splat.isExact == isExact)
    }

    @Test func overlapIsNeverDeniedWhereAPathMatchesBoth() throws {
        let patterns = try Self.patterns.map(PathPattern.init)
        for first in patterns {
            for second in patterns where Self.paths.contains(where: { first.matches($0) && second.matches($0) }) {
                #expect(first.mayOverlap(with: second), "\(first) \(second)")
            }
        }
        #expect(!(try PathPattern("*.html").mayOverlap(with: try PathPattern("/bundles/*.bundle"))))
        #expect(!(try PathPattern("/a/**").mayOverlap(with: try PathPattern("/b/**"))))
        #expect(!(try PathPattern("/x/*").mayOverlap(with: try PathPattern("/x/.*"))))
    }

    @Test func coverageIsOnlyClaimedForPathsInsideTheDirectory() throws {
        let directory = try PathPattern("/bundles/**")
        for source in Self.patterns {
            let pattern = try PathPattern(source)
            if pattern.isCovered(by: directory) {
                #expect(Self.paths.allSatisfy { !pattern.matches($0) || directory.matches($0) }, "\(source)")
            }
        }
        #expect(HeaderPolicy.contentHashedBundlePattern.isCovered(by: directory))
        #expect(!(try PathPattern("*.html").isCovered(by: directory)))
    }
}
