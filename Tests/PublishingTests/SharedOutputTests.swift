import Foundation
import Hosting
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
