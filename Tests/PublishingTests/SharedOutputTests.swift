import Foundation
import Hosting
import SitePolicy
import Testing
@testable import Publishing

/// SmallSite written into a fresh temporary directory (removed after `body`), and its config's path.
private func withSmallSite(_ body: (TemporaryDirectory, String) throws -> Void) throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    try body(dir, try SmallSite.write(into: dir))
}

/// An output folder shared with another tool (a site generator's `public/`): BundlePress never
/// replaces or deletes a file it did not write.
@Suite("An output folder shared with a site generator")
struct SharedOutputTests {
    /// The issue's "done when": another site's `index.html`, assets and `_headers` stay byte for
    /// byte (rules kept, the block added), and nothing is written outside `bundles/`, `_headers`
    /// and dot files, at the first build and the next ones.
    @Test func anotherSitesFilesStayAndNothingIsWrittenBesideThem() throws {
        try withSmallSite { dir, config in
            let theirs: [String: String] = [
                "site/index.html": "<!doctype html><title>Their site</title><script src=\"/assets/app.js\"></script>\n",
                "site/assets/app.js": "console.log('their app');\n",
                "site/assets/style.css": "body { color: black }\n",
                "site/news/first/index.html": "<p>their article</p>\n",
                "site/explorer.js": "// their own file named like an explorer module\n",
                "site/_headers": "/*\n  X-Frame-Options: DENY\n  Content-Security-Policy: default-src 'self'\n",
            ]
            for (path, text) in theirs { try dir.write(path, text) }
            let site = TemporaryDirectory(existing: dir.file("site"))
            let before = try site.snapshot()
            _ = try build(config: config)
            try dir.write("data.ndjson", SmallSite.data.replacingOccurrences(of: "\"Demo\"", with: "\"Demo 2\""))
            _ = try build(config: config)
            let after = try site.snapshot()
            for (path, bytes) in before where path != "_headers" {
                #expect(after[path] == bytes, "\(path) changed")
            }
            let headers = try #require(after["_headers"].map { String(decoding: $0, as: UTF8.self) })
            #expect(headers.hasPrefix(theirs["site/_headers"]! + "\n\(MarkedBlock.startLine)\n") && headers.hasSuffix("\(MarkedBlock.endLine)\n"))
            let added = Set(after.keys).subtracting(before.keys)
            #expect(added.filter { !$0.hasPrefix("bundles/") && !$0.hasPrefix(".") } == [])
            #expect(added.contains("bundles/manifest.json") && added.contains("bundles/bundlepress.js"))
        }
    }

    /// bundlepress's block of `_headers` speaks only for what the build writes (`bundles/`, and
    /// the explorer's folder when the config writes it): on Netlify and Cloudflare Pages the site's
    /// own rules still decide its pages and assets, and the bundles, manifest and snapshots keep
    /// the Cache-Control `bundlepress serve` sends.
    @Test(arguments: [nil, "explorer"])
    func theSitesOwnRulesDecideItsPagesAndTheBundlesKeepTheirs(explorer: String?) throws {
        try withSmallSite { dir, config in
            let theirs = "/*\n  Cache-Control: public, max-age=3600\n  X-Frame-Options: DENY\n\n/assets/*\n  X-Robots-Tag: noindex\n"
            try dir.write("site/_headers", theirs)
            if let explorer { try dir.write("pipeline.yml", SmallSite.config + "explorer: \(explorer)\n") }
            _ = try build(config: config)
            let text = try String(contentsOfFile: dir.file("site/_headers"), encoding: .utf8)
            let block = try #require(text.components(separatedBy: MarkedBlock.startLine).last)
            let blockPaths = block.split(separator: "\n").filter { $0.hasPrefix("/") }
            let folders = ["/bundles/"] + (explorer.map { ["/\($0)/"] } ?? [])
            #expect(!blockPaths.isEmpty && blockPaths.allSatisfy { path in folders.contains { path.hasPrefix($0) } }, "\(blockPaths)")

            let published = try TemporaryDirectory(existing: dir.file("site")).snapshot().keys.filter { $0.hasPrefix("bundles/") && !$0.hasSuffix(".gz") }
            #expect(published.contains("bundles/manifest.json") && published.contains { $0.hasPrefix("bundles/snapshots/") } && published.contains { $0.hasSuffix(".bundle") })
            let hosts: [(name: String, built: any HostEvaluator, siteOnly: any HostEvaluator)] = [
                ("Netlify", NetlifyEvaluator(text), NetlifyEvaluator(theirs)),
                ("Cloudflare Pages", CloudflarePagesEvaluator(text), CloudflarePagesEvaluator(theirs)),
            ]
            for host in hosts {
                for path in ["/", "/index.html", "/news/slug/", "/news/slug/index.html", "/assets/app.js", "/robots.txt"] {
                    #expect(host.built.response(forPath: path) == host.siteOnly.response(forPath: path), "\(host.name) \(path)")
                }
                #expect(host.built.response(forPath: "/assets/app.js")["cache-control"] == "public, max-age=3600")
                for path in published.map({ "/\($0)" }) {
                    let expected = HostResponse.expected(.default, path: path)["cache-control"]
                    #expect(host.built.response(forPath: path)["cache-control"] == expected, "\(host.name) \(path)")
                }
            }
        }
    }

    @Test func aFileInTheWayOfOneBundlePressWritesFailsTheBuildAndStays() throws {
        try withSmallSite { dir, config in
            let theirs = try dir.write("site/bundles/manifest.json", "{\"their\": \"manifest\"}")
            guard case .publish(let publish) = try #require(buildError(config: config)) else {
                Issue.record("not a publish error")
                return
            }
            #expect(publish.path == theirs)
            #expect(publish.message.contains("did not write") && publish.message.contains("move the file away"))
            #expect(try String(contentsOfFile: theirs, encoding: .utf8) == "{\"their\": \"manifest\"}")
        }
    }

    @Test func theSiteHeaderRulesStayAndBundlePressRulesGoInTheirBlock() throws {
        try withSmallSite { dir, config in
            let theirs = "/*\n  X-Frame-Options: DENY\n  Content-Security-Policy: default-src 'self'\n"
            try dir.write("site/_headers", theirs)
            _ = try build(config: config)
            let first = try String(contentsOfFile: dir.file("site/_headers"), encoding: .utf8)
            #expect(first.hasPrefix(theirs + "\n\(MarkedBlock.startLine)\n"))
            #expect(first.hasSuffix("\(MarkedBlock.endLine)\n") && first.contains("/bundles/manifest.json\n"))

            // New rules replace the block in place; lines the site added after it stay.
            try dir.write("site/_headers", first + "/news/*\n  Cache-Control: no-cache\n")
            try dir.write("pipeline.yml", SmallSite.config + "headers:\n  - source: \"/bundles/**\"\n    headers: {X-Robots-Tag: noindex}\n")
            _ = try build(config: config)
            let second = try String(contentsOfFile: dir.file("site/_headers"), encoding: .utf8)
            #expect(second.hasPrefix(theirs + "\n\(MarkedBlock.startLine)\n") && second.contains("X-Robots-Tag: noindex"))
            #expect(second.hasSuffix("\(MarkedBlock.endLine)\n/news/*\n  Cache-Control: no-cache\n"))
            #expect(second.components(separatedBy: MarkedBlock.startLine).count == 2)
        }
    }

    @Test func aFileBundlePressWroteIsReplaced() throws {
        try withSmallSite { dir, config in
            let first = try build(config: config)
            try dir.write("data.ndjson", SmallSite.data.replacingOccurrences(of: "\"Demo\"", with: "\"Demo 2\""))
            let second = try build(config: config)
            #expect(second.manifestChanged && second.bundles[0].file != first.bundles[0].file)
        }
    }
}
