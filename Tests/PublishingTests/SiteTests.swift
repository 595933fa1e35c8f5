import BundleFormat
import Crypto
import FirestoreModel
import Foundation
import Gzip
import Testing
@testable import Publishing

private func sha256Hex(_ bytes: [UInt8]) -> String {
    SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
}

/// Replaces the site's manifest by hand, and removes the state, which belonged to the old one.
private func writeManifest(_ manifest: Manifest, site: String) throws {
    try manifest.encoded().write(to: URL(fileURLWithPath: (site as NSString).appendingPathComponent("bundles/manifest.json")))
    try FileManager.default.removeItem(atPath: (site as NSString).appendingPathComponent(SiteHistory.fileName))
}

@Suite("Atomic publishing")
struct PublishingTests {
    @Test func failedBuildLeavesThePublishedSiteIntact() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir)
        _ = try build(config: config)
        let before = try TemporaryDirectory(existing: dir.file("site")).snapshot()
        #expect(before.keys.filter { $0.hasPrefix("bundles/") }.count == 10)  // with the loader, bundlepress.js

        // A malformed export: the build fails while reading, before publishing anything.
        try dir.write("data.ndjson", SmallSite.data.replacingOccurrences(of: "\"n\":{\"integerValue\":\"3\"}", with: "\"n\":{\"integerValue\":3x}"))
        guard case .input? = buildError(config: config) else {
            Issue.record("expected an input error")
            return
        }
        #expect(try TemporaryDirectory(existing: dir.file("site")).snapshot() == before)

        // A config that fails only once the inputs are known (unknown collection).
        try SmallSite.write(into: dir, config: SmallSite.config.replacingOccurrences(of: "      all:\n        collection: c\n", with: "      all:\n        collection: nope\n"))
        guard case .config? = buildError(config: config) else {
            Issue.record("expected a config error")
            return
        }
        #expect(try TemporaryDirectory(existing: dir.file("site")).snapshot() == before)
    }

    @Test func failingPublisherLeavesTheOldManifest() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir)
        _ = try build(config: config)
        let site = dir.file("site")
        let before = try TemporaryDirectory(existing: site).snapshot()

        // Find the names the next build will write (builds are deterministic: the same inputs,
        // config and state give the same bytes) by building it on a copy of the site.
        try dir.write("data.ndjson", SmallSite.data.replacingOccurrences(of: "\"Demo\"", with: "\"Changed\""))
        try FileManager.default.copyItem(atPath: site, toPath: dir.file("preview"))
        let preview = try build(config: config, output: dir.file("preview"))
        let newFront = preview.bundles[0].file
        #expect(!before.keys.contains("bundles/\(newFront)"))
        // Block that name with a non-empty directory: the rename into place must fail (even as root).
        // It is listed as BundlePress's (as a name a killed build claimed is), so that the build
        // gets as far as the rename rather than refuse a file it did not write.
        try dir.write("site/bundles/\(newFront)/blocker", "x")
        let ledgerPath = dir.file("site/\(RetentionLedger.fileName)")
        var ledger = try JSONDecoder().decode(RetentionLedger.self, from: Data(contentsOf: URL(fileURLWithPath: ledgerPath)))
        ledger.owned = (ledger.owned ?? []) + ["bundles/\(newFront)"]
        try Data(ledger.encoded()).write(to: URL(fileURLWithPath: ledgerPath))

        let error = try #require(buildError(config: config))
        guard case .publish(let publishError) = error else {
            Issue.record("expected a publish error, found \(error)")
            return
        }
        #expect(publishError.path == dir.file("site/bundles/\(newFront)"))
        #expect(publishError.message.contains("cannot move into place"))
        var after = try TemporaryDirectory(existing: site).snapshot()
        after["bundles/\(newFront)/blocker"] = nil
        // The ledger holds the claims the build made before writing anything.
        for (name, bytes) in before where name != RetentionLedger.fileName {
            #expect(after[name] == bytes, "\(name) changed")
        }
        // No staging directory is left behind.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.file("site/bundles")).filter { $0.hasPrefix(".staging") }
        #expect(leftovers == [])
        #expect(SiteVerifier(siteDirectory: site).verify().isValid)
    }

    @Test func manifestPathBlockedByADirectory() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir)
        // manifest.json is a non-empty directory BundlePress did not write: refused before any write.
        try dir.write("site/bundles/manifest.json/keep", "x")
        guard case .publish(let error)? = buildError(config: config) else {
            Issue.record("expected a publish error")
            return
        }
        #expect(error.path == dir.file("site/bundles/manifest.json") && error.message.contains("did not write"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("site/bundles")) == ["manifest.json"])
        #expect(FileManager.default.fileExists(atPath: dir.file("site/bundles/manifest.json/keep")))
    }

    @Test func publisherSkipsIdenticalFilesAndReplacesChangedOnes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let publisher = SitePublisher(outputDirectory: dir.path)
        let first = try publisher.publish(
            files: [.init(name: "a.bundle", chunks: [[1, 2], [3]]), .init(name: "b.bundle", chunks: [[4]])], manifest: Data("{}\n".utf8), history: .empty)
        #expect(first.written == ["a.bundle", "b.bundle"])
        #expect(first.unchanged == [])
        #expect(first.manifestChanged)
        #expect(FileManager.default.contents(atPath: dir.file("bundles/a.bundle")) == Data([1, 2, 3]))

        let second = try publisher.publish(
            files: [.init(name: "a.bundle", chunks: [[1], [2, 3]]), .init(name: "b.bundle", chunks: [[5]])], manifest: Data("{}\n".utf8), history: .empty)
        #expect(second.written == ["b.bundle"])
        #expect(second.unchanged == ["a.bundle"])
        #expect(!second.manifestChanged)
        #expect(FileManager.default.contents(atPath: dir.file("bundles/b.bundle")) == Data([5]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("bundles")).sorted() == ["a.bundle", "b.bundle", "manifest.json"])
    }
}

@Suite("SiteVerifier")
struct VerifierTests {
    /// Builds the small site and returns the directory, the site path and its manifest.
    private func publishedSite() throws -> (TemporaryDirectory, String, Manifest) {
        let dir = try TemporaryDirectory()
        let config = try SmallSite.write(into: dir)
        _ = try build(config: config)
        let site = dir.file("site")
        return (dir, site, try readManifest(site: site))
    }

    @Test func freshSiteIsValid() throws {
        let (dir, site, manifest) = try publishedSite()
        defer { dir.remove() }
        let report = SiteVerifier(siteDirectory: site).verify()
        #expect(report.problems == [])
        #expect(report.warnings == [])
        #expect(report.checkedBundles == manifest.bundles.map(\.id))
    }

    @Test func tamperedBundleByte() throws {
        let (dir, site, manifest) = try publishedSite()
        defer { dir.remove() }
        let file = dir.file("site/" + manifest.bundles[1].url)
        var bytes = try #require(FileManager.default.contents(atPath: file))
        // Change one letter inside a string value (the bundle stays well-formed).
        let index = try #require(bytes.lastIndex(of: UInt8(ascii: "x")))
        bytes[index] = UInt8(ascii: "z")
        try bytes.write(to: URL(fileURLWithPath: file))
        let report = SiteVerifier(siteDirectory: site).verify()
        #expect(!report.isValid)
        #expect(report.checkedBundles == ["front"])
        let messages = report.problems.filter { $0.bundle == "lists" }.map(\.message)
        #expect(messages.contains { $0.contains("has SHA-256") && $0.contains("the manifest says \(manifest.bundles[1].sha256)") }, "\(messages)")
        #expect(messages.contains { $0.contains("does not decompress to") }, "\(messages)")
    }

    @Test func gzipThatDoesNotMatch() throws {
        let (dir, site, manifest) = try publishedSite()
        defer { dir.remove() }
        let entry = manifest.bundles[0]
        // A valid gzip of other bytes with the recorded size kept out of the picture.
        let raw = try #require(FileManager.default.contents(atPath: dir.file("site/" + entry.url)))
        var other = Array(raw)
        other[other.count - 2] ^= 0x01
        try Data(try GzipCompressor.compress(other)).write(to: URL(fileURLWithPath: dir.file("site/" + entry.gzipURL)))
        let report = SiteVerifier(siteDirectory: site).verify()
        let messages = report.problems.filter { $0.bundle == "front" }.map(\.message)
        #expect(messages.contains("\(entry.gzipURL) does not decompress to \(entry.url)"), "\(messages)")
        #expect(!messages.contains { $0.contains("SHA-256") })

        // Not gzip at all.
        try Data("plain".utf8).write(to: URL(fileURLWithPath: dir.file("site/" + entry.gzipURL)))
        let corrupt = SiteVerifier(siteDirectory: site).verify().problems.filter { $0.bundle == "front" }.map(\.message)
        #expect(corrupt.contains { $0.hasPrefix("\(entry.gzipURL): ") }, "\(corrupt)")
    }

    @Test func aStateOfAnotherManifestOrOtherBundles() throws {
        let (dir, site, manifest) = try publishedSite()
        defer { dir.remove() }
        let state = dir.file("site/\(SiteHistory.fileName)")
        let original = try String(contentsOfFile: state, encoding: .utf8)
        try manifest.encoded().dropLast().write(to: URL(fileURLWithPath: dir.file("site/bundles/manifest.json")))
        #expect(SiteVerifier(siteDirectory: site).verify().problems.map(\.description) == ["manifest: \(state) was written with another manifest than the published one"])
        try manifest.encoded().write(to: URL(fileURLWithPath: dir.file("site/bundles/manifest.json")))
        let createTime = try #require(manifest.bundles[0].createTime)
        try dir.write("site/\(SiteHistory.fileName)", original.replacingOccurrences(of: "\"create_time\":\"\(createTime)\"", with: "\"create_time\":\"2020-01-01T00:00:00.000000000Z\""))
        #expect(SiteVerifier(siteDirectory: site).verify().problems.map(\.description).contains("manifest: \(state) dates bundle front 2020-01-01T00:00:00.000000000Z, the bundle says \(createTime)"))
    }

    @Test func missingFile() throws {
        let (dir, site, manifest) = try publishedSite()
        defer { dir.remove() }
        try FileManager.default.removeItem(atPath: dir.file("site/" + manifest.bundles[0].gzipURL))
        let report = SiteVerifier(siteDirectory: site).verify()
        #expect(report.problems.map(\.description) == ["front: \(manifest.bundles[0].url) or \(manifest.bundles[0].gzipURL) is missing or unreadable"])
        #expect(report.checkedBundles == ["lists"])
    }

    @Test func missingManifest() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let report = SiteVerifier(siteDirectory: dir.path).verify()
        #expect(report.problems.count == 1)
        #expect(report.problems.first?.bundle == nil)
        #expect(report.problems.first?.message.contains("is missing; run bundlepress build first") == true)
    }

    @Test func namedQueryListedInTheWrongBundle() throws {
        let (dir, site, manifest) = try publishedSite()
        defer { dir.remove() }
        var edited = manifest
        edited.namedQueries["top"] = Manifest.QueryLocation(bundle: "lists", url: manifest.bundles[1].url)
        try writeManifest(edited, site: site)
        let report = SiteVerifier(siteDirectory: site).verify()
        #expect(report.problems.map(\.description) == [
            "manifest: named_queries.top points to lists at \(manifest.bundles[1].url), which does not list it",
        ])
        // The bundles themselves are fine.
        #expect(report.checkedBundles == ["front", "lists"])
    }

    @Test func manifestEntryDisagreesWithTheBundle() throws {
        let (dir, site, manifest) = try publishedSite()
        defer { dir.remove() }
        var edited = manifest
        edited.bundles[0].documents = 99
        edited.bundles[0].namedQueries = ["top", "extra"]
        try writeManifest(edited, site: site)
        let messages = SiteVerifier(siteDirectory: site).verify().problems.filter { $0.bundle == "front" }.map(\.message)
        #expect(messages.contains("holds 3 documents, the manifest says 99"), "\(messages)")
        #expect(messages.contains { $0.hasPrefix("named queries are [\"top\"]") }, "\(messages)")
    }

    @Test func documentMetadataDisagreesWithItsQuery() throws {
        let (dir, site, manifest) = try publishedSite()
        defer { dir.remove() }
        let entry = manifest.bundles[1]
        let original = try readBundle(site: site, url: entry.url)
        // Rewrite `lists` faithfully except that c/c no longer claims to be in `xs`.
        var writer = try BundleWriter(id: original.metadata.id, snapshotTime: original.metadata.createTime, database: demo)
        for named in original.namedQueries {
            try writer.addNamedQuery(name: named.name, bundledQuery: named.bundledQuery.bytes)
        }
        for bundled in original.documents {
            let document = try #require(bundled.document)
            let queries = document.path == path("c/c") ? bundled.metadata.queries.filter { $0 != "xs" } : bundled.metadata.queries
            try writer.addDocument(document, queries: queries)
        }
        let bytes = writer.encode().joined()
        let sha = sha256Hex(bytes)
        let url = "bundles/lists.\(sha.prefix(16)).bundle"
        try Data(bytes).write(to: URL(fileURLWithPath: dir.file("site/" + url)))
        try Data(try GzipCompressor.compress(bytes)).write(to: URL(fileURLWithPath: dir.file("site/" + url + ".gz")))
        var edited = manifest
        edited.bundles[1] = Manifest.Entry(
            id: "lists", url: url, gzipURL: url + ".gz", sha256: sha, createTime: entry.createTime, bytes: bytes.count,
            gzipBytes: try Data(contentsOf: URL(fileURLWithPath: dir.file("site/" + url + ".gz"))).count,
            documents: entry.documents, results: entry.results, namedQueries: entry.namedQueries)
        edited = Manifest(snapshotTime: edited.snapshotTime, project: edited.project, database: edited.database, clients: edited.clients ?? [], bundles: edited.bundles)
        try writeManifest(edited, site: site)

        let report = SiteVerifier(siteDirectory: site).verify()
        #expect(report.problems.map(\.description) == [
            "lists: named query \"xs\" returns 2 documents over the bundle but 1 list it (missing: [], unexpected: [\"c/c\"])",
        ])
    }

    @Test func bundleNotNamedByItsHash() throws {
        let (dir, site, manifest) = try publishedSite()
        defer { dir.remove() }
        let entry = manifest.bundles[0]
        let renamed = "bundles/front.0000000000000000.bundle"
        try FileManager.default.copyItem(atPath: dir.file("site/" + entry.url), toPath: dir.file("site/" + renamed))
        var edited = manifest
        edited.bundles[0].url = renamed
        try writeManifest(edited, site: site)
        let messages = SiteVerifier(siteDirectory: site).verify().problems.map(\.description)
        #expect(messages.contains("front: \(renamed) is not named by its content hash (\(entry.sha256.prefix(16)))"), "\(messages)")
    }

    @Test func urlsOutsideTheSiteAreRefused() throws {
        let (dir, site, manifest) = try publishedSite()
        defer { dir.remove() }
        try dir.write("outside.bundle", "x")
        var edited = manifest
        edited.bundles[0].url = "../outside.bundle"
        try writeManifest(edited, site: site)
        let messages = SiteVerifier(siteDirectory: site).verify().problems.map(\.description)
        #expect(messages.contains { $0.hasPrefix("front: ../outside.bundle or ") && $0.hasSuffix("is missing or unreadable") }, "\(messages)")
    }
}

@Suite("Manifest schema")
struct ManifestTests {
    @Test func exactKeysSortedWithTrailingNewline() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir)
        let report = try build(config: config)
        let data = try #require(FileManager.default.contents(atPath: dir.file("site/bundles/manifest.json")))
        #expect(data.last == UInt8(ascii: "\n"))
        #expect(data.dropLast().last != UInt8(ascii: "\n"))

        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(json.keys) == ["schema_version", "snapshot_time", "site_time", "horizon_start", "project", "database", "clients", "bundles", "named_queries", "documents"])
        // A new site's time is its snapshot time; the horizon starts leavers.keep (30 days) before it.
        #expect(json["site_time"] as? String == SmallSite.newestUpdate)
        #expect((json["horizon_start"] as? String).flatMap { try? Timestamp(rfc3339: $0) } == (try Timestamp(rfc3339: SmallSite.newestUpdate)).advanced(bySeconds: -30 * 86_400))
        #expect(json["schema_version"] as? Int == 1)
        #expect(json["snapshot_time"] as? String == SmallSite.newestUpdate)
        #expect(json["project"] as? String == "demo")
        #expect(json["database"] as? String == "(default)")

        let bundles = try #require(json["bundles"] as? [[String: Any]])
        #expect(bundles.count == 2)
        for (bundle, built) in zip(bundles, report.bundles) {
            #expect(Set(bundle.keys) == ["id", "url", "gzip_url", "sha256", "create_time", "bytes", "gzip_bytes", "documents", "results", "named_queries"])
            #expect(bundle["create_time"] as? String == built.createTime)
            #expect(bundle["id"] as? String == built.id)
            #expect(bundle["url"] as? String == "bundles/\(built.file)")
            #expect(bundle["gzip_url"] as? String == "bundles/\(built.file).gz")
            let sha = try #require(bundle["sha256"] as? String)
            #expect(sha.count == 64 && sha.allSatisfy { "0123456789abcdef".contains($0) })
            #expect(built.file == "\(built.id).\(sha.prefix(16)).bundle")
            #expect(bundle["bytes"] as? Int == built.bytes)
            #expect(bundle["gzip_bytes"] as? Int == built.gzipBytes)
            #expect(bundle["documents"] as? Int == built.documents)
            #expect(bundle["named_queries"] as? [String] == built.namedQueries)
            // The recorded sizes and hash are those of the files.
            let raw = try #require(FileManager.default.contents(atPath: dir.file("site/bundles/\(built.file)")))
            #expect(raw.count == built.bytes)
            #expect(sha256Hex(Array(raw)) == sha)
            #expect(FileManager.default.contents(atPath: dir.file("site/bundles/\(built.file).gz"))?.count == built.gzipBytes)
        }

        let queries = try #require(json["named_queries"] as? [String: [String: String]])
        #expect(queries.mapValues { $0.filter { $0.key != "snapshot" } } == [
            "top": ["bundle": "front", "url": "bundles/\(report.bundles[0].file)"],
            "all": ["bundle": "lists", "url": "bundles/\(report.bundles[1].file)"],
            "xs": ["bundle": "lists", "url": "bundles/\(report.bundles[1].file)"],
        ])
        #expect(queries.allSatisfy { name, location in location["snapshot"]?.hasPrefix("bundles/snapshots/\(name).") == true })
        let documents = try #require(json["documents"] as? [String: [String: String]])
        #expect(documents.keys.sorted() == ["site/settings"])

        // Keys appear in sorted order at every level (pretty-printed: the indent gives the level).
        let text = String(decoding: data, as: UTF8.self)
        func keys(indent: Int) -> [String] {
            text.split(separator: "\n").compactMap { line -> String? in
                let prefix = String(repeating: " ", count: indent) + "\""
                guard line.hasPrefix(prefix), let end = line.range(of: "\" : ") else { return nil }
                return String(line[line.index(line.startIndex, offsetBy: prefix.count)..<end.lowerBound])
            }
        }
        #expect(keys(indent: 2) == ["bundles", "clients", "database", "documents", "horizon_start", "named_queries", "project", "schema_version", "site_time", "snapshot_time"])
        #expect(keys(indent: 4) == ["site/settings", "all", "top", "xs"])
        let entryKeys = ["bytes", "create_time", "documents", "gzip_bytes", "gzip_url", "id", "named_queries", "results", "sha256", "url"]
        #expect(keys(indent: 6) == entryKeys + entryKeys + Array(repeating: ["bundle", "snapshot", "url"], count: 4).flatMap { $0 })
        #expect(!text.contains("\\/"))
    }

    @Test func encodingIsDeterministicAndRoundTrips() throws {
        let entry = Manifest.Entry(
            id: "b", url: "bundles/b.0123456789abcdef.bundle", gzipURL: "bundles/b.0123456789abcdef.bundle.gz",
            sha256: String(repeating: "0", count: 64), createTime: "2024-01-01T00:00:00.000000000Z", bytes: 10, gzipBytes: 20, documents: 3,
            results: 2, namedQueries: ["q1", "q2"])
        let manifest = Manifest(snapshotTime: "2024-01-01T00:00:00.000000000Z", project: "p", database: "(default)", clients: ["web", "android", "ios"], bundles: [entry])
        #expect(manifest.schemaVersion == Manifest.currentSchemaVersion)
        #expect(manifest.namedQueries == [
            "q1": .init(bundle: "b", url: entry.url), "q2": .init(bundle: "b", url: entry.url),
        ])
        let encoded = manifest.encoded()
        #expect(encoded == manifest.encoded())
        #expect(try Manifest.decode(encoded) == manifest)
        let expected = """
            {
              "bundles" : [
                {
                  "bytes" : 10,
                  "create_time" : "2024-01-01T00:00:00.000000000Z",
                  "documents" : 3,
                  "gzip_bytes" : 20,
                  "gzip_url" : "bundles/b.0123456789abcdef.bundle.gz",
                  "id" : "b",
                  "named_queries" : [
                    "q1",
                    "q2"
                  ],
                  "results" : 2,
                  "sha256" : "0000000000000000000000000000000000000000000000000000000000000000",
                  "url" : "bundles/b.0123456789abcdef.bundle"
                }
              ],
              "clients" : [
                "web",
                "android",
                "ios"
              ],
              "database" : "(default)",
              "named_queries" : {
                "q1" : {
                  "bundle" : "b",
                  "url" : "bundles/b.0123456789abcdef.bundle"
                },
                "q2" : {
                  "bundle" : "b",
                  "url" : "bundles/b.0123456789abcdef.bundle"
                }
              },
              "project" : "p",
              "schema_version" : 1,
              "snapshot_time" : "2024-01-01T00:00:00.000000000Z"
            }

            """
        #expect(String(decoding: encoded, as: UTF8.self) == expected)
    }
}
