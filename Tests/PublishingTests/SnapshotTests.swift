import BundleFormat
import FirestoreModel
import Foundation
import Testing
@testable import PipelineLanguage
@testable import Publishing
import SystemSupport

/// The snapshot file `url` (relative to `site`) as the JS SDK's `validateJSON` sees it: its
/// top-level members, each of which must be a string.
private func snapshotFields(site: String, url: String) throws -> [String: String] {
    let data = try Data(contentsOf: URL(fileURLWithPath: (site as NSString).appendingPathComponent(url)))
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return try object.mapValues { try #require($0 as? String) }
}

/// The bundle text a snapshot carries, read with the strict reader (no missing documents).
private func snapshotBundle(_ fields: [String: String]) throws -> BundleContents {
    try BundleReader.read(Array(try #require(fields["bundle"]).utf8), database: demo, missingDocuments: .rejected)
}

/// The files under `site/bundles/snapshots/`.
private func snapshotFiles(_ dir: TemporaryDirectory) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir.file("site/bundles/snapshots"))) ?? []).sorted()
}

/// A new temporary directory holding the small site of `config`, built once.
private func builtSmallSite(_ config: String = SmallSite.config, _ label: String = #function) throws -> (dir: TemporaryDirectory, config: String) {
    let dir = try TemporaryDirectory(label)
    let path = try SmallSite.write(into: dir, config: config)
    try build(config: path)
    return (dir, path)
}

@Suite("Server-rendering snapshots")
struct SnapshotTests {
    @Test func everyNamedQueryHasASnapshotOfItsResultsOnly() throws {
        let (dir, config) = try builtSmallSite()
        defer { dir.remove() }
        // c/b leaves `top` in the second build: its bundle carries it as a leaver, the snapshot not.
        try SmallSite.write(into: dir, data: SmallSite.data.replacingOccurrences(of: "\"n\":{\"integerValue\":\"2\"}", with: "\"n\":{\"integerValue\":\"0\"}"))
        try build(config: config)
        let site = dir.file("site")
        let manifest = try readManifest(site: site)
        let siteTime = timestamp(try #require(manifest.siteTime))
        #expect(manifest.namedQueries.count == 3)
        for (name, location) in manifest.namedQueries {
            let url = try #require(location.snapshot)
            #expect(url.hasPrefix("bundles/snapshots/\(name)."))
            let fields = try snapshotFields(site: site, url: url)
            #expect(fields == ["type": "firestore/querySnapshot/1.0", "bundleSource": "QuerySnapshot", "bundleName": name, "bundle": fields["bundle"]!])
            let snapshot = try snapshotBundle(fields)
            #expect(snapshot.namedQueries.map(\.name) == [name])
            #expect(snapshot.metadata.createTime == siteTime)
            #expect(snapshot.namedQueries[0].readTime == siteTime)
            #expect(snapshot.documents.allSatisfy { $0.metadata.readTime == siteTime && $0.metadata.queries == [name] && $0.document != nil })
            let bundle = try readBundle(site: site, url: location.url)
            let results = bundle.documents.filter { $0.metadata.queries.contains(name) }.map(\.metadata.name.path)
            #expect(snapshot.documents.map(\.metadata.name.path) == results)
            #expect(snapshot.namedQueries[0].bundledQuery.bytes == bundle.namedQueries.first { $0.name == name }?.bundledQuery.bytes)
        }
        let top = try snapshotBundle(try snapshotFields(site: site, url: try #require(manifest.namedQueries["top"]?.snapshot)))
        #expect(top.documents.map(\.metadata.name.path) == [path("c/a"), path("c/c")])
        let front = try readBundle(site: site, url: try #require(manifest.namedQueries["top"]?.url))
        #expect(front.documents.contains { $0.metadata.name.path == path("c/b") }, "the bundle carries the leaver")
    }

    @Test func listedDocumentsHaveDocumentSnapshots() throws {
        let (dir, _) = try builtSmallSite()
        defer { dir.remove() }
        let site = dir.file("site")
        let manifest = try readManifest(site: site)
        let documents = try #require(manifest.documents)
        #expect(documents.keys.sorted() == ["site/settings"])
        let location = try #require(documents["site/settings"])
        #expect(location.bundle == "front")
        #expect(location.url == manifest.bundles.first { $0.id == "front" }?.url)
        let fields = try snapshotFields(site: site, url: try #require(location.snapshot))
        #expect(fields["type"] == "firestore/documentSnapshot/1.0")
        #expect(fields["bundleSource"] == "DocumentSnapshot")
        #expect(fields["bundleName"] == "site/settings")
        let snapshot = try snapshotBundle(fields)
        #expect(snapshot.namedQueries.isEmpty)
        #expect(snapshot.documents.count == 1)
        let document = try #require(snapshot.documents.first?.document)
        #expect(document.path == path("site/settings"))
        #expect(Value.map(document.fields) == Value.map(MapValue([("title", Value.string("Demo"))])))
        #expect(snapshot.metadata.createTime == timestamp(try #require(manifest.siteTime)))
    }

    @Test func anUnchangedBuildKeepsItsSnapshotsByteForByte() throws {
        let (dir, config) = try builtSmallSite()
        defer { dir.remove() }
        let before = try TemporaryDirectory(existing: dir.file("site/bundles/snapshots")).snapshot()
        #expect(before.count == 4)
        let rebuilt = try SiteBuilder(config: try PipelineConfig.load(file: config)).build(evenIfUpToDate: true)
        #expect(!rebuilt.manifestChanged)
        #expect(try TemporaryDirectory(existing: dir.file("site/bundles/snapshots")).snapshot() == before)
    }

    @Test func snapshotsCanBeTurnedOffForTheSiteOrABundle() throws {
        let (dir, config) = try builtSmallSite(SmallSite.config + "snapshots: false\n")
        defer { dir.remove() }
        var manifest = try readManifest(site: dir.file("site"))
        #expect(manifest.namedQueries.values.allSatisfy { $0.snapshot == nil })
        #expect(manifest.documents == nil)
        #expect(snapshotFiles(dir).isEmpty)

        try SmallSite.write(into: dir, config: SmallSite.config.replacingOccurrences(of: "  - id: lists\n", with: "  - id: lists\n    snapshots: false\n"))
        try build(config: config)
        manifest = try readManifest(site: dir.file("site"))
        #expect(manifest.namedQueries.filter { $0.value.snapshot != nil }.keys.sorted() == ["top"])
        #expect(manifest.documents?.keys.sorted() == ["site/settings"])
        #expect(snapshotFiles(dir).count == 2)
    }

    @Test func theSwitchIsABoolean() {
        #expect(configError(SmallSite.config + "snapshots: sometimes\n")?.message.contains("must be true or false") == true)
    }

    @Test func verifyChecksEverySnapshot() throws {
        let (dir, _) = try builtSmallSite()
        defer { dir.remove() }
        let site = dir.file("site")
        #expect(SiteVerifier(siteDirectory: site).verify().isValid)
        let manifest = try readManifest(site: site)
        let file = (site as NSString).appendingPathComponent(try #require(manifest.namedQueries["xs"]?.snapshot))
        let original = try Data(contentsOf: URL(fileURLWithPath: file))

        // The other query's snapshot in its place: the name, the query and the documents differ.
        let all = (site as NSString).appendingPathComponent(try #require(manifest.namedQueries["all"]?.snapshot))
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.copyItem(atPath: all, toPath: file)
        let problems = SiteVerifier(siteDirectory: site).verify().problems.map(\.description)
        #expect(problems.contains { $0.contains("snapshot of named query \"xs\"") && $0.contains("not named by its content hash") })
        #expect(problems.contains { $0.contains("bundleName is \"all\", not \"xs\"") })

        // Put back, then gone.
        try original.write(to: URL(fileURLWithPath: file))
        #expect(SiteVerifier(siteDirectory: site).verify().isValid)
        try FileManager.default.removeItem(atPath: file)
        #expect(SiteVerifier(siteDirectory: site).verify().problems.contains { $0.description.contains("is missing or unreadable") })
    }

    @Test func retentionLetsOldSnapshotsGo() throws {
        let text = SmallSite.config + "retention: {builds: 0, min_age: 0s}\n"
        let (dir, config) = try builtSmallSite(text)
        defer { dir.remove() }
        let first = Set(snapshotFiles(dir))
        try SmallSite.write(into: dir, config: text, data: SmallSite.data.replacingOccurrences(of: "\"Demo\"", with: "\"Demo 2\""))
        try build(config: config)
        let second = Set(snapshotFiles(dir))
        #expect(second.count == 4)
        #expect(first.isDisjoint(with: second), "a new site time dates every snapshot anew; the old ones are gone")
        let manifest = try readManifest(site: dir.file("site"))
        #expect(Set(manifest.snapshotNames.map { ($0 as NSString).lastPathComponent }) == second)
    }

    @Test func aSnapshotOverItsBudgetFailsTheBuild() throws {
        let (dir, _) = try builtSmallSite()
        defer { dir.remove() }
        let url = try #require(try readManifest(site: dir.file("site")).namedQueries["all"]?.snapshot)
        let size = try #require(FileStamp(path: dir.file("site/\(url)"))?.size)
        // A budget one byte under the snapshot of `all`; the bundles have none.
        let config = try SmallSite.write(into: dir, config: SmallSite.config + "budgets: {max_snapshot_bytes: \(size - 1)}\n")
        guard case .budgetExceeded(let violations)? = buildError(config: config) else {
            Issue.record("expected a budget error")
            return
        }
        #expect(violations.map(\.snapshot) == ["named query \"all\""])
        #expect(violations.first?.bundle == "lists")
        #expect(violations.first?.bytes == Int(size))
        #expect(violations.first?.description.contains("over max_snapshot_bytes of \(size - 1)") == true)
    }
}
