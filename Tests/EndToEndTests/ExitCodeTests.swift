import Foundation
import Testing

@Suite("bundlepress exit codes")
struct ExitCodeTests {
    @Test func malformedExportIs65AndNamesThePosition() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        #expect(try example.run("build", "--quiet").status == 0)
        let manifestBefore = try example.read("site/bundles/manifest.json")
        let filesBefore = try FileManager.default.contentsOfDirectory(atPath: example.file("site/bundles")).sorted()

        // Break line 7 of stories.ndjson: drop the colon after "fields".
        var lines = try example.read("exports/stories.ndjson").components(separatedBy: "\n")
        let broken = lines[6].replacingOccurrences(of: "\"fields\":{", with: "\"fields\"{")
        #expect(broken != lines[6])
        lines[6] = broken
        try example.write("exports/stories.ndjson", lines.joined(separator: "\n"))
        let column = try #require(broken.range(of: "\"fields\"{")).upperBound.utf16Offset(in: broken)

        let result = try example.run("build")
        #expect(result.status == 65, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("error: "), "\(result)")
        #expect(result.stderr.contains("exports/stories.ndjson:7:\(column): "), "expected column \(column): \(result)")
        // The published site is untouched.
        #expect(try example.read("site/bundles/manifest.json") == manifestBefore)
        #expect(try FileManager.default.contentsOfDirectory(atPath: example.file("site/bundles")).sorted() == filesBefore)
    }

    @Test func duplicateDocumentIs65() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        try FileManager.default.copyItem(atPath: example.file("exports/authors.ndjson"), toPath: example.file("exports/authors-again.ndjson"))
        let result = try example.run("build")
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("exports/authors.ndjson:1:1: document authors/"), "\(result)")
        #expect(result.stderr.contains("appears twice (first at ") && result.stderr.contains("exports/authors-again.ndjson:1:1)"), "\(result)")
    }

    @Test func missingConfigIs78() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let result = try example.run("build", "--config", "nope.yml")
        #expect(result.status == 78, "\(result)")
        #expect(result.stderr.hasPrefix("error: cannot read the config file nope.yml"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: example.file("site")))
    }

    @Test func badConfigIs78WithTheYAMLLine() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let config = try example.read("pipeline.yml")
        let lines = config.components(separatedBy: "\n")
        let index = try #require(lines.firstIndex(of: "        limit: 6"))
        try example.write("pipeline.yml", config.replacingOccurrences(of: "        limit: 6\n", with: "        limit: six\n"))
        let result = try example.run("build")
        #expect(result.status == 78, "\(result)")
        #expect(result.stderr == "error: pipeline.yml:\(index + 1):16: bundles[0].queries.featured-stories.limit must be an integer, found \"six\" (a string)\n", "\(result)")
    }

    @Test func queryRejectedForClientsIs78() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let config = try example.read("pipeline.yml")
        let changed = config.replacingOccurrences(of: "          - [active, ==, true]\n", with: "          - or:\n              - [active, ==, true]\n              - [name, ==, Ada]\n")
        #expect(changed != config)
        try example.write("pipeline.yml", changed)
        let result = try example.run("build")
        #expect(result.status == 78, "\(result)")
        #expect(result.stderr.contains("Android and iOS clients fail to load a bundle whose named query uses an OR filter"), "\(result)")

        // A web-only site may use OR filters: it builds and verifies.
        try example.write("pipeline.yml", "clients: [web]\n" + changed)
        let web = try example.run("build", "--quiet")
        #expect(web.status == 0, "\(web)")
        let verify = try example.run("verify", "site")
        #expect(verify.status == 0, "\(verify)")
    }

    @Test func inputGlobMatchingNothingIs66() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let config = try example.read("pipeline.yml")
        try example.write("pipeline.yml", config.replacingOccurrences(of: "exports/site/*.ndjson", with: "exports/missing/*.ndjson"))
        let result = try example.run("build")
        #expect(result.status == 66, "\(result)")
        #expect(result.stderr.contains("inputs: \"exports/missing/*.ndjson\" matches no files"), "\(result)")
        #expect(result.stderr.hasPrefix("error: pipeline.yml:"), "\(result)")
    }

    @Test func publishFailureIs74() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        try FileManager.default.createDirectory(atPath: example.file("site/bundles/manifest.json/blocked"), withIntermediateDirectories: true)
        let result = try example.run("build")
        #expect(result.status == 74, "\(result)")
        #expect(result.stderr.hasPrefix("error: cannot publish: "), "\(result)")
    }

    @Test func verifyOnATamperedSiteIs1() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        #expect(try example.run("build", "--quiet").status == 0)
        let entry = try #require(try example.manifestBundles().last)
        let url = try #require(entry["url"] as? String)
        let path = example.file("site/" + url)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count - 3] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: path))
        let result = try example.run("verify", "site")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == "7 bundles ok, 1 with problems\n", "\(result)")
        #expect(result.stderr.contains("error: community: \(url) has SHA-256 "), "\(result)")

        // A site with no manifest at all.
        let empty = try example.run("verify", "exports")
        #expect(empty.status == 1)
        #expect(empty.stdout == "0 bundles ok, 0 with problems, manifest problems\n", "\(empty)")
    }

    @Test func inspectOnATruncatedBundleIs1() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        #expect(try example.run("build", "--quiet").status == 0)
        let url = try #require(try example.manifestBundles().first?["url"] as? String)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: example.file("site/" + url)))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: example.file("truncated.bundle")))
        let result = try example.run("inspect", "truncated.bundle")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("error: truncated.bundle: "), "\(result)")
        #expect(result.stderr.count > "error: truncated.bundle: \n".count + 10, "no reason given: \(result)")

        // Truncated gzip too.
        let gzipURL = try #require(try example.manifestBundles().first?["gzip_url"] as? String)
        let gzip = try Data(contentsOf: URL(fileURLWithPath: example.file("site/" + gzipURL)))
        try gzip.prefix(gzip.count - 10).write(to: URL(fileURLWithPath: example.file("truncated.bundle.gz")))
        let gzipResult = try example.run("inspect", "--json", "truncated.bundle.gz")
        #expect(gzipResult.status == 1, "\(gzipResult)")
        #expect(gzipResult.stderr.hasPrefix("error: truncated.bundle.gz: "), "\(gzipResult)")
    }

    @Test func inspectOnAMissingFileIs66() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let result = try example.run("inspect", "nothing.bundle")
        #expect(result.status == 66, "\(result)")
        #expect(result.stderr == "error: nothing.bundle: cannot read the file\n")
    }

    @Test func usageErrorIs64() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let result = try example.run("build", "--no-such-option")
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--no-such-option"))
    }
}
