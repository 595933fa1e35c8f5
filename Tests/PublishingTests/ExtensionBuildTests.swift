import FirestoreModel
import Foundation
import Hosting
import Testing
@testable import PipelineLanguage
@testable import Publishing

/// Stories, and two bundle specs of the extension in `bundles`.
private enum SpecSite {
    static func map(_ pairs: KeyValuePairs<String, String>) -> String { "{\"mapValue\":{\"fields\":\(NDJSON.fields(pairs))}}" }
    static func array(_ items: String...) -> String { "{\"arrayValue\":{\"values\":[\(items.joined(separator: ","))]}}" }

    static let data = NDJSON.file(
        NDJSON.document("stories/s1", NDJSON.fields(["cat": NDJSON.string("news"), "year": NDJSON.int(2024)])),
        NDJSON.document("stories/s2", NDJSON.fields(["cat": NDJSON.string("sport"), "year": NDJSON.int(2023)])),
        NDJSON.document("stories/s3", NDJSON.fields(["cat": NDJSON.string("news"), "year": NDJSON.int(2022)])),
        NDJSON.document("stories/s4", NDJSON.fields(["year": NDJSON.int(2021)])),
        NDJSON.document("bundles/latest", NDJSON.fields([
            "queries": map(["latest": map([
                "collection": NDJSON.string("stories"),
                "conditions": array(map(["orderBy": array(NDJSON.string("year"), NDJSON.string("desc"))]), map(["limit": NDJSON.int(2)])),
            ])]),
            "clientCache": NDJSON.string("300"),
        ])),
        NDJSON.document("bundles/by-cat", NDJSON.fields([
            "params": map(["cat": map(["required": NDJSON.bool(true)])]),
            "queries": map(["stories": map([
                "collection": NDJSON.string("stories"),
                "conditions": array(map(["where": array(NDJSON.string("cat"), NDJSON.string("=="), NDJSON.string("$cat"))])),
            ])]),
            "fileCache": NDJSON.int(60),
        ]))
    )

    static let specConfig = "project: demo\ninputs: [data.ndjson]\nextension: {collection: bundles}\n"

    /// The same queries written as plain config.
    static let plainConfig = """
        project: demo
        inputs: [data.ndjson]
        bundles:
          - id: latest
            queries:
              latest: {collection: stories, order_by: [[year, desc]], limit: 2}
          - id: news
            queries:
              stories-news: {collection: stories, where: [[cat, ==, news]]}
          - id: sport
            queries:
              stories-sport: {collection: stories, where: [[cat, ==, sport]]}

        """
}

@Suite("the extension's bundle specs")
struct ExtensionBuildTests {
    /// A spec's query name repeats across its combinations: each combination's query is judged
    /// by its own results when the build warns of queries with no result.
    @Test func aCombinationWithNoResultIsWarnedOfAlone() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = "project: demo\ninputs: [data.ndjson]\nextension: {collection: bundles, params: {by-cat: {cat: [news, weather]}}}\n"
        let report = try build(config: try SmallSite.write(into: directory, config: config, data: SpecSite.data))
        #expect(report.bundles.map(\.id) == ["by-cat.cat.news", "by-cat.cat.weather", "latest"])
        #expect(report.dataWarnings.map { "\($0.kind.rawValue) \($0.bundle) \($0.query ?? "")" } == ["no-results by-cat.cat.weather stories"])
    }

    /// Each combination's snapshot is its bundle's to list: `named_queries` holds one bundle per
    /// name, and a snapshot no manifest names would be an old file for retention to delete.
    @Test func eachSpecBundleListsItsOwnSnapshots() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try build(config: try SmallSite.write(into: directory, config: SpecSite.specConfig, data: SpecSite.data))
        let manifest = try readManifest(site: directory.file("site"))
        let own = manifest.bundles.map { $0.snapshots?["stories"] ?? $0.snapshots?["latest"] }
        #expect(own.allSatisfy { $0 != nil } && Set(own).count == 3)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.file("site/bundles/snapshots"))
        #expect(Set(manifest.snapshotNames) == Set(files.map { "snapshots/\($0)" }))
    }

    @Test func specBundlesHoldWhatThePlainConfigHolds() throws {
        let specs = try TemporaryDirectory()
        defer { specs.remove() }
        let plain = try TemporaryDirectory()
        defer { plain.remove() }
        let report = try build(config: try SmallSite.write(into: specs, config: SpecSite.specConfig, data: SpecSite.data))
        _ = try build(config: try SmallSite.write(into: plain, config: SpecSite.plainConfig, data: SpecSite.data))

        // Specs in id order, each combination in value order.
        #expect(report.bundles.map(\.id) == ["by-cat.cat.news", "by-cat.cat.sport", "latest"])
        #expect(report.warnings.contains { $0.contains("bundle spec bundles/by-cat: fileCache concerns only") })
        let specManifest = try readManifest(site: specs.file("site"))
        let plainManifest = try readManifest(site: plain.file("site"))
        #expect(specManifest.bundles.map(\.spec) == ["by-cat", "by-cat", "latest"])
        #expect(specManifest.bundles.map(\.specParameters) == [["cat": .text("news")], ["cat": .text("sport")], [:]])

        for (specIndex, plainIndex) in [(0, 1), (1, 2), (2, 0)] {
            let specBundle = try readBundle(site: specs.file("site"), url: specManifest.bundles[specIndex].url)
            let plainBundle = try readBundle(site: plain.file("site"), url: plainManifest.bundles[plainIndex].url)
            #expect(specBundle.documents.map(\.metadata.name.path) == plainBundle.documents.map(\.metadata.name.path))
            #expect(specBundle.namedQueries.map(\.bundledQuery.bytes) == plainBundle.namedQueries.map(\.bundledQuery.bytes))
        }
        // The named query keeps the spec's name in each bundle; spec documents are not data.
        let news = try readBundle(site: specs.file("site"), url: specManifest.bundles[0].url)
        #expect(news.namedQueries.map(\.name) == ["stories"])
        #expect(news.documents.map(\.metadata.name.path) == [path("stories/s1"), path("stories/s3")])
    }

    @Test func specBundlesAreAlsoAtTheExtensionsURLs() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        _ = try build(config: try SmallSite.write(into: dir, config: SpecSite.specConfig, data: SpecSite.data))
        let manifest = try readManifest(site: dir.file("site"))
        #expect(manifest.bundles.map(\.stableURL) == ["bundles/by-cat/cat/news", "bundles/by-cat/cat/sport", "bundles/latest"])
        for entry in manifest.bundles {
            let copy = try Data(contentsOf: URL(fileURLWithPath: dir.file("site/\(entry.stableURL!)")))
            #expect(copy == (try Data(contentsOf: URL(fileURLWithPath: dir.file("site/\(entry.url)")))))
        }
        // clientCache and serverCache become max-age and s-maxage, revalidated.
        let headers = try String(contentsOfFile: dir.file("site/_headers"), encoding: .utf8)
        #expect(headers.contains("/bundles/latest\n  ! Cache-Control\n  Cache-Control: public, max-age=300, s-maxage=0, must-revalidate"), "\(headers)")
        #expect(headers.contains("/bundles/by-cat/*\n  ! Cache-Control\n  Cache-Control: public, max-age=0, s-maxage=0, must-revalidate"), "\(headers)")
    }

    /// A stable copy is a link to the published bundle, not a second copy of its bytes.
    @Test func aStableURLIsTheBundleItself() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        _ = try build(config: try SmallSite.write(into: dir, config: SpecSite.specConfig, data: SpecSite.data))
        let manifest = try readManifest(site: dir.file("site"))
        for entry in manifest.bundles {
            let stable = try FileManager.default.attributesOfItem(atPath: dir.file("site/\(entry.stableURL!)"))
            let bundle = try FileManager.default.attributesOfItem(atPath: dir.file("site/\(entry.url)"))
            #expect(stable[.systemFileNumber] as? Int == bundle[.systemFileNumber] as? Int, "\(entry.id)")
        }
    }

    /// A spec gone from the exports, or a value no longer found, takes its stable URL with it;
    /// a file BundlePress did not write under a spec's folder stays.
    @Test func aStableURLGoesWithItsBundle() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir, config: SpecSite.specConfig, data: SpecSite.data)
        _ = try build(config: config)
        try dir.write("site/bundles/by-cat/notes.txt", "the user's own")
        let fewer = SpecSite.data.split(separator: "\n").filter { !$0.contains("documents/bundles/latest\"") && !$0.contains("documents/stories/s2\"") }
        try dir.write("data.ndjson", fewer.joined(separator: "\n") + "\n")
        _ = try build(config: config)
        let manifest = try readManifest(site: dir.file("site"))
        #expect(manifest.bundles.map(\.stableURL) == ["bundles/by-cat/cat/news"])
        for gone in ["bundles/latest", "bundles/by-cat/cat/sport"] {
            #expect(!FileManager.default.fileExists(atPath: dir.file("site/\(gone)")), "\(gone)")
        }
        #expect(FileManager.default.fileExists(atPath: dir.file("site/bundles/by-cat/cat/news")))
        #expect(try String(contentsOfFile: dir.file("site/bundles/by-cat/notes.txt"), encoding: .utf8) == "the user's own")
    }

    /// A spec id the site's `bundles/` folder already has a name for gets no stable copy, and the
    /// build says so.
    @Test func aSpecNamedLikeTheSitesFilesHasNoStableURL() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let data = SpecSite.data.replacingOccurrences(of: "documents/bundles/latest\"", with: "documents/bundles/snapshots\"")
        let report = try build(config: try SmallSite.write(into: dir, config: SpecSite.specConfig, data: data))
        let manifest = try readManifest(site: dir.file("site"))
        #expect(manifest.bundles.map(\.stableURL) == ["bundles/by-cat/cat/news", "bundles/by-cat/cat/sport", nil])
        #expect(report.warnings.contains { $0.contains("bundle spec bundles/snapshots") && $0.contains("no copy at the extension's URL") }, "\(report.warnings)")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: dir.file("site/bundles/snapshots"), isDirectory: &isFolder) && isFolder.boolValue)
    }

    /// On Netlify the extension's `?cat=news` URL is rewritten to the stable path, by a block of
    /// `_redirects` that keeps the site's own rules and goes when no spec has parameters.
    @Test func netlifyMapsTheQueryStringURLsInABlockOfRedirects() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let configPath = try SmallSite.write(into: dir, config: SpecSite.specConfig, data: SpecSite.data)
        try FileManager.default.createDirectory(atPath: dir.file("site"), withIntermediateDirectories: true)
        try Data("/* /index.html 200\n".utf8).write(to: URL(fileURLWithPath: dir.file("site/_redirects")))
        _ = try build(config: configPath)
        let redirects = try String(contentsOfFile: dir.file("site/_redirects"), encoding: .utf8)
        #expect(redirects == """
            \(MarkedBlock.startLine)
            /bundles/by-cat  cat=:v0  /bundles/by-cat/cat/:v0  200
            \(MarkedBlock.endLine)

            /* /index.html 200

            """, "\(redirects)")
        try Data(NDJSON.file(NDJSON.document("bundles/latest", NDJSON.fields(["docs": SpecSite.array(NDJSON.string("stories/s1"))])), NDJSON.document("stories/s1", NDJSON.fields(["cat": NDJSON.string("news")]))).utf8)
            .write(to: URL(fileURLWithPath: dir.file("data.ndjson")))
        _ = try build(config: configPath)
        #expect(try String(contentsOfFile: dir.file("site/_redirects"), encoding: .utf8) == "/* /index.html 200\n")
    }

    @Test func aSpecErrorFailsTheBuildNamingTheSpec() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let data = NDJSON.file(
            NDJSON.document("stories/s1", NDJSON.fields(["cat": NDJSON.string("news")])),
            NDJSON.document("bundles/bad", NDJSON.fields([
                "queries": SpecSite.map(["q": SpecSite.map([
                    "collection": NDJSON.string("stories"),
                    "conditions": SpecSite.array(SpecSite.map(["where": SpecSite.array(NDJSON.string("cat"), NDJSON.string("eq"), NDJSON.string("x"))])),
                ])]),
            ])))
        guard case .config(let error)? = buildError(config: try SmallSite.write(into: dir, config: SpecSite.specConfig, data: data)) else {
            Issue.record("expected a config error")
            return
        }
        #expect(error.message.hasPrefix("bundle spec bundles/bad, queries.q.conditions[0] {where: [\"cat\", \"eq\", \"x\"]}: unknown operator \"eq\""))
    }
}
