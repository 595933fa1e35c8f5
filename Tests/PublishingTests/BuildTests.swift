import BundleFormat
import FirestoreModel
import Foundation
import JSONCore
import Testing
@testable import PipelineLanguage
@testable import Publishing

@Suite("SiteBuilder over small fixtures")
struct BuildTests {
    @Test func buildsTheExpectedBundles() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir)
        let report = try build(config: config)
        #expect(report.outputDirectory == dir.file("site"))
        #expect(report.inputFiles == 1)
        #expect(report.inputDocuments == 5 - 1)
        #expect(report.snapshotTime == SmallSite.newestUpdate)
        #expect(report.bundles.map(\.id) == ["front", "lists"])
        #expect(report.bundles.map(\.documents) == [3, 3])
        #expect(report.bundles.map(\.namedQueries) == [["top"], ["all", "xs"]])
        #expect(report.bundles.allSatisfy { $0.status == .new })
        #expect(report.manifestChanged)

        let manifest = try readManifest(site: dir.file("site"))
        let front = try readBundle(site: dir.file("site"), url: manifest.bundles[0].url)
        #expect(front.metadata.id == "front")
        #expect(front.metadata.createTime == timestamp(SmallSite.newestUpdate))
        #expect(front.documents.map(\.metadata.name.path.description) == ["c/b", "c/c", "site/settings"])
        #expect(front.documents.map(\.metadata.queries) == [["top"], ["top"], []])
        let lists = try readBundle(site: dir.file("site"), url: manifest.bundles[1].url)
        #expect(lists.documents.map(\.metadata.queries) == [["all", "xs"], ["all"], ["all", "xs"]])
        #expect(lists.namedQueries.map(\.name) == ["all", "xs"])
        #expect(lists.namedQueries.allSatisfy { $0.readTime == timestamp(SmallSite.newestUpdate) })
    }

    @Test func determinism() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir)
        let first = try build(config: config, output: dir.file("one"))
        let second = try build(config: config, output: dir.file("two"))
        #expect(first.bundles.map(\.file) == second.bundles.map(\.file))
        // All but the build record, which holds the report (timings, the output's path).
        let one = try TemporaryDirectory(existing: dir.file("one")).snapshot().filter { $0.key != BuildRecord.fileName }
        let two = try TemporaryDirectory(existing: dir.file("two")).snapshot().filter { $0.key != BuildRecord.fileName }
        #expect(one.keys.filter { $0.hasPrefix("bundles/") }.count == 10)  // 2 × (.bundle + .bundle.gz) + manifest + 4 snapshots + bundlepress.js
        #expect(Set(one.keys) == Set(two.keys))
        for (name, bytes) in one {
            #expect(two[name] == bytes, "\(name) differs between two builds")
        }
        #expect(one.keys.contains("bundles/manifest.json"))
        #expect(one.keys.filter { $0.hasSuffix(".bundle.gz") }.count == 2)
    }

    @Test func incrementalBuildWritesNothing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir)
        _ = try build(config: config)
        let bundles = dir.file("site/bundles")
        let names = try FileManager.default.contentsOfDirectory(atPath: bundles).sorted()
        // Age every file so a rewrite would show up as a new modification time.
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        for name in names {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: (bundles as NSString).appendingPathComponent(name))
        }
        let report = try build(config: config)
        #expect(report.bundles.allSatisfy { $0.status == .unchanged })
        #expect(!report.manifestChanged)
        #expect(try FileManager.default.contentsOfDirectory(atPath: bundles).sorted() == names)
        for name in names {
            let attributes = try FileManager.default.attributesOfItem(atPath: (bundles as NSString).appendingPathComponent(name))
            #expect(attributes[.modificationDate] as? Date == old, "\(name) was rewritten")
        }
    }

    @Test func changedInputWritesOnlyTheChangedBundle() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir)
        let first = try build(config: config)
        // Change the settings document only: `front` changes, `lists` does not.
        try dir.write("data.ndjson", SmallSite.data.replacingOccurrences(of: "\"Demo\"", with: "\"Demo 2\""))
        let second = try build(config: config)
        #expect(second.bundles.map(\.status) == [.changed, .unchanged])
        #expect(second.bundles[0].file != first.bundles[0].file)
        #expect(second.bundles[1].file == first.bundles[1].file)
        #expect(second.manifestChanged)
        // The old hashed files stay for clients holding the old manifest.
        #expect(FileManager.default.fileExists(atPath: dir.file("site/bundles/\(first.bundles[0].file)")))
        #expect(SiteVerifier(siteDirectory: dir.file("site")).verify().problems == [])
    }

    @Test func duplicateDocumentNamesBothPlaces() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("more.ndjson", NDJSON.file(NDJSON.document("c/z"), NDJSON.document("c/b", NDJSON.fields(["n": NDJSON.int(20)]))))
        let config = try SmallSite.write(into: dir, config: SmallSite.config.replacingOccurrences(of: "[data.ndjson]", with: "[data.ndjson, more.ndjson]"))
        let error = try #require(buildError(config: config))
        guard case .data(let message, let location) = error else {
            Issue.record("expected a data error, found \(error)")
            return
        }
        #expect(location == SourceLocation(file: dir.file("more.ndjson"), line: 2, column: 1))
        #expect(message.contains("document c/b appears twice (first at \(dir.file("data.ndjson")):2:1)"))
        #expect(message.contains("duplicates: last-wins"))
        #expect(error.description.hasPrefix("\(dir.file("more.ndjson")):2:1: "))
        // Only the lock file was created: nothing was published.
        #expect(!FileManager.default.fileExists(atPath: dir.file("site/bundles")))
    }

    @Test func duplicatesLastWins() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("more.ndjson", NDJSON.file(NDJSON.document("c/b", NDJSON.fields(["n": NDJSON.int(20), "tag": NDJSON.string("x")]))))
        let yaml = "duplicates: last-wins\n" + SmallSite.config.replacingOccurrences(of: "[data.ndjson]", with: "[data.ndjson, more.ndjson]")
        let config = try SmallSite.write(into: dir, config: yaml)
        let report = try build(config: config)
        #expect(report.inputDocuments == 4)
        let manifest = try readManifest(site: dir.file("site"))
        let lists = try readBundle(site: dir.file("site"), url: manifest.bundles[1].url)
        let b = try #require(lists.documents.first { $0.metadata.name.path == path("c/b") }?.document)
        #expect(b.fields["n"] == .integer(20))
        // The later copy matches `xs` (tag x); the first did not.
        #expect(lists.documents.first { $0.metadata.name.path == path("c/b") }?.metadata.queries == ["all", "xs"])
    }

    @Test func explicitDocumentMissingFromInputs() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir, config: SmallSite.config.replacingOccurrences(of: "[site/settings]", with: "[site/settings, site/missing]"))
        let error = try #require(buildError(config: config))
        guard case .config(let configError) = error else {
            Issue.record("expected a config error, found \(error)")
            return
        }
        #expect(configError.message.contains("bundle \"front\" lists document site/missing, which is not in the inputs"))
        #expect(configError.location == SourceLocation(file: config, line: 6, column: 5))
    }

    @Test func queryOverAnUnknownCollection() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir, config: SmallSite.config.replacingOccurrences(of: "      xs:\n        collection: c\n", with: "      xs:\n        collection: cc\n"))
        let error = try #require(buildError(config: config))
        guard case .config(let configError) = error else {
            Issue.record("expected a config error, found \(error)")
            return
        }
        #expect(configError.location == SourceLocation(file: config, line: 17, column: 7))
        #expect(configError.message.contains("named query \"xs\" reads collection \"cc\", which has no documents in the inputs"))
        #expect(configError.message.contains("collections present: c, site"))
    }

    @Test func queryOverAnUnknownCollectionGroup() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir, config: SmallSite.config.replacingOccurrences(of: "      xs:\n        collection: c\n", with: "      xs:\n        collection_group: comments\n"))
        let error = try #require(buildError(config: config))
        guard case .config(let configError) = error else {
            Issue.record("expected a config error, found \(error)")
            return
        }
        #expect(configError.message.contains("collection group \"comments\""))
    }

    @Test func inputGlobMatchingNothing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir, config: SmallSite.config.replacingOccurrences(of: "[data.ndjson]", with: "\n  - data.ndjson\n  - exports/*.json"))
        let error = try #require(buildError(config: config))
        guard case .noInputFiles(let pattern, let location) = error else {
            Issue.record("expected noInputFiles, found \(error)")
            return
        }
        #expect(pattern == "exports/*.json")
        #expect(location == SourceLocation(file: config, line: 4, column: 5))
        #expect(error.description == "\(config):4:5: inputs: \"exports/*.json\" matches no files")
    }

    @Test func globsExpandRecursivelyAndInOrder() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("exports/b.ndjson", NDJSON.file(NDJSON.document("c/b")))
        try dir.write("exports/a.ndjson", NDJSON.file(NDJSON.document("c/a")))
        try dir.write("exports/deep/er/c.ndjson", NDJSON.file(NDJSON.document("c/c")))
        try dir.write("exports/.hidden.ndjson", NDJSON.file(NDJSON.document("c/h")))
        try dir.write("exports/notes.txt", "not an export")
        #expect(try FileGlob(pattern: "exports/*.ndjson").expand(relativeTo: dir.path) == [dir.file("exports/a.ndjson"), dir.file("exports/b.ndjson")])
        #expect(try FileGlob(pattern: "exports/**/*.ndjson").expand(relativeTo: dir.path)
            == [dir.file("exports/a.ndjson"), dir.file("exports/b.ndjson"), dir.file("exports/deep/er/c.ndjson")])
        #expect(try FileGlob(pattern: "exports/?.ndjson").expand(relativeTo: dir.path).count == 2)
        #expect(try FileGlob(pattern: "exports/[a].ndjson").expand(relativeTo: dir.path) == [dir.file("exports/a.ndjson")])
        #expect(try FileGlob(pattern: dir.file("exports/a.ndjson")).expand(relativeTo: "/elsewhere") == [dir.file("exports/a.ndjson")])
        // A folder named without wildcards is an input (a managed or emulator export); wildcards match files only.
        #expect(try FileGlob(pattern: "exports").expand(relativeTo: dir.path) == [dir.file("exports")])
        #expect(try FileGlob(pattern: "export?").expand(relativeTo: dir.path) == [])
    }

    @Test func snapshotTimeBeforeAnUpdateTime() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir, config: "snapshot_time: 2024-01-02T12:00:00Z\n" + SmallSite.config)
        let error = try #require(buildError(config: config))
        guard case .data(let message, let location) = error else {
            Issue.record("expected a data error, found \(error)")
            return
        }
        #expect(location == SourceLocation(file: dir.file("data.ndjson"), line: 2, column: 1))
        #expect(message.contains("document c/b was updated at 2024-01-03T00:00:00.000000000Z, after snapshot_time 2024-01-02T12:00:00.000000000Z"))
    }

    @Test func documentsWithoutTimesGetTheSnapshotTime() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let data = NDJSON.file(
            NDJSON.document("c/a", NDJSON.fields(["n": NDJSON.int(1)])),
            NDJSON.document("c/b", NDJSON.fields(["n": NDJSON.int(2)]), create: nil, update: nil)
        )
        let config = try SmallSite.write(into: dir, config: """
            project: demo
            inputs: [data.ndjson]
            previous: none
            bundles:
              - id: all
                documents: [c/a, c/b]

            """, data: data)
        let report = try build(config: config)
        #expect(report.snapshotTime == "2024-01-02T00:00:00.000000000Z")
        let manifest = try readManifest(site: dir.file("site"))
        let contents = try readBundle(site: dir.file("site"), url: manifest.bundles[0].url)
        let a = try #require(contents.documents.first?.document)
        let b = try #require(contents.documents.last?.document)
        #expect(a.createTime == timestamp("2024-01-01T00:00:00Z"))
        #expect(a.updateTime == timestamp("2024-01-02T00:00:00Z"))
        #expect(b.path == path("c/b"))
        #expect(b.createTime == timestamp("2024-01-02T00:00:00Z"))
        #expect(b.updateTime == timestamp("2024-01-02T00:00:00Z"))

        // With an explicit snapshot_time the untimed document gets that instead.
        try dir.write("pipeline.yml", "snapshot_time: 2025-06-01T00:00:00Z\n" + (try String(contentsOfFile: config, encoding: .utf8)))
        _ = try build(config: config)
        let later = try readBundle(site: dir.file("site"), url: try readManifest(site: dir.file("site")).bundles[0].url)
        #expect(later.documents.last?.document?.updateTime == timestamp("2025-06-01T00:00:00Z"))
        #expect(later.documents.first?.document?.updateTime == timestamp("2024-01-02T00:00:00Z"))
        #expect(later.metadata.createTime == timestamp("2025-06-01T00:00:00Z"))
    }

    @Test func noTimesAndNoSnapshotTimeIsAnError() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(
            into: dir, config: "project: demo\ninputs: [data.ndjson]\nbundles:\n  - id: all\n    documents: [c/a]\n",
            data: NDJSON.file(NDJSON.document("c/a", create: nil, update: nil)))
        guard case .data(let message, _)? = buildError(config: config) else {
            Issue.record("expected a data error")
            return
        }
        #expect(message.contains("set snapshot_time:"))
    }

    @Test func foreignDatabaseReference() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let data = NDJSON.file(
            NDJSON.document("c/a", NDJSON.fields(["n": NDJSON.int(1)])),
            NDJSON.document("c/b", NDJSON.fields(["owner": "{\"referenceValue\":\"projects/other/databases/(default)/documents/users/u1\"}"]))
        )
        let config = try SmallSite.write(
            into: dir, config: "project: demo\ninputs: [data.ndjson]\nbundles:\n  - id: all\n    documents: [c/a]\n", data: data)
        let error = try #require(buildError(config: config))
        guard case .data(let message, let location) = error else {
            Issue.record("expected a data error, found \(error)")
            return
        }
        #expect(location == SourceLocation(file: dir.file("data.ndjson"), line: 2, column: 1))
        #expect(message.contains("document c/b holds a reference to projects/other/databases/(default)/documents/users/u1"))
        #expect(message.contains("iOS"))
    }

    @Test func sameDatabaseReferencesAreReRooted() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // Exported from another project: the document and its same-database reference move to demo.
        let data = NDJSON.file(NDJSON.document(
            "c/a", NDJSON.fields(["peer": "{\"referenceValue\":\"projects/staging/databases/(default)/documents/c/b\"}"]), project: "staging"))
        let config = try SmallSite.write(
            into: dir, config: "project: demo\ninputs: [data.ndjson]\nbundles:\n  - id: all\n    documents: [c/a]\n", data: data)
        _ = try build(config: config)
        let contents = try readBundle(site: dir.file("site"), url: try readManifest(site: dir.file("site")).bundles[0].url)
        #expect(contents.documents.first?.document?.fields["peer"] == .reference(ResourceName(database: demo, path: path("c/b"))))
    }

    @Test func malformedInputIsAnInputErrorWithItsPosition() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let broken = SmallSite.data.replacingOccurrences(of: "\"fields\":{\"title\"", with: "\"fields\":{,\"title\"")
        #expect(broken != SmallSite.data)
        let config = try SmallSite.write(into: dir, data: broken)
        let error = try #require(buildError(config: config))
        guard case .input(let exportError) = error else {
            Issue.record("expected an input error, found \(error)")
            return
        }
        #expect(error.description.hasPrefix("\(dir.file("data.ndjson")):4:"), "\(exportError)")
    }

    @Test func orQueryOnAWebOnlySite() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let yaml = "clients: [web]\n" + SmallSite.config.replacingOccurrences(
            of: "          - [tag, ==, x]\n", with: "          - or:\n              - [tag, ==, x]\n              - [n, ==, 2]\n")
        let config = try SmallSite.write(into: dir, config: yaml)
        #expect(try PipelineConfig.load(file: config).clients == .web)
        // Queries are checked against the targeted clients: a web-only site may use OR filters,
        // and the manifest records the clients so `verify` reads its bundles the same way.
        _ = try build(config: config)
        let manifest = try Manifest.decode(Data(contentsOf: URL(fileURLWithPath: dir.file("site/bundles/manifest.json"))))
        #expect(manifest.clients == ["web"])
        #expect(SiteVerifier(siteDirectory: dir.file("site")).verify().isValid)
    }
}
