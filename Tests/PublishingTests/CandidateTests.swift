import FirestoreModel
import Foundation
import PipelineLanguage
import Testing
@testable import Publishing

/// A build holds only the documents that can ship (``CandidateRules``): what every named query
/// can still return as documents stream past, what `documents:` lists or a cursor is at, and
/// what was published before. The bundles must be those a build holding every document makes:
/// the oracle is the same site with a `for_each` bundle added that lists a document by each
/// author's id, which makes every document a candidate (a value can name any document).
@Suite("Candidates: only what can ship is held")
struct CandidateTests {
    static let oracleBundle = """
          - id: "oracle-{id}"
            for_each: {documents: authors}
            documents: ["authors/{id}"]

        """

    /// The stories whose scores are the best.
    static let best = Set((0..<240).filter { ($0 * 7919) % 500 >= 450 })

    /// Stories (scores that tie, some unpublished), comments under some of them, authors; with
    /// `edits`, a later file holding new versions of the best stories, unpublished, and of
    /// others, published with the best score.
    static func data(unpublishing: Set<Int> = [], deleting: Set<Int> = [], edits: Bool = false) -> [String: String] {
        let categories = ["news", "tech", "sport"]
        let stories = (0..<240).filter { !deleting.contains($0) }.map { index in
            NDJSON.document(
                "stories/s\(index)",
                NDJSON.fields([
                    "score": NDJSON.int((index * 7919) % 500),
                    "published": NDJSON.bool(index % 4 != 0 && !unpublishing.contains(index)),
                    "category": NDJSON.string(categories[index % 3]),
                    "at": "{\"timestampValue\":\"2024-01-\(String(format: "%02d", 1 + index % 28))T00:00:00Z\"}",
                ]),
                update: unpublishing.contains(index) ? "2024-02-10T00:00:00Z" : "2024-02-01T00:00:00Z")
        }
        let comments = (0..<180).map { index in
            NDJSON.document(
                "stories/s\(index % 40)/comments/c\(index)",
                NDJSON.fields([
                    "likes": NDJSON.int((index * 31) % 97), "approved": NDJSON.bool(index % 5 != 0),
                    "at": "{\"timestampValue\":\"2024-01-\(String(format: "%02d", 1 + index % 28))T00:00:00Z\"}",
                ]))
        }
        let authors = (0..<30).map { NDJSON.document("authors/a\($0)", NDJSON.fields(["name": NDJSON.string("Author \($0)")])) }
        let edited = best.sorted().map { index in
            NDJSON.document("stories/s\(index)", NDJSON.fields(["score": NDJSON.int(1), "published": NDJSON.bool(false)]), update: "2024-02-20T00:00:00Z")
        } + [4, 8, 77].map { index in
            NDJSON.document("stories/s\(index)", NDJSON.fields(["score": NDJSON.int(499), "published": NDJSON.bool(true)]), update: "2024-02-20T00:00:00Z")
        }
        var files = [
            "exports/a-stories.ndjson": stories.joined(separator: "\n") + "\n",
            "exports/b-comments.ndjson": comments.joined(separator: "\n") + "\n",
            "exports/c-authors.ndjson": authors.joined(separator: "\n") + "\n",
        ]
        if edits { files["exports/d-edits.ndjson"] = edited.joined(separator: "\n") + "\n" }
        return files
    }

    /// Named queries of every kind a candidate can be judged by: limits, limit-to-last, cursors
    /// at values and at a document, a time relative to the snapshot, a collection group, order by
    /// document key alone, none matching, and listed documents. The stories are judged by
    /// queries known before reading only (one known after reading holds its whole scope).
    static func config(snapshotTime: Bool, lastWins: Bool) -> String {
        site("\(snapshotTime ? "snapshot_time: 2024-03-01T00:00:00Z" : "")\nduplicates: \(lastWins ? "last-wins" : "error")", bundles: """
          - id: front
            documents: [stories/s1, authors/a29]
            queries:
              top: {collection: stories, where: [[published, ==, true]], order_by: [[score, desc]], limit: 7}
              oldest: {collection: stories, order_by: [score], limit_to_last: 4}
              after-400: {collection: stories, order_by: [[score, desc]], start_after: [400], limit: 5}
              first-authors: {collection: authors, limit: 5}
              from-a5: {collection: authors, order_by: [name], start_at: {document: authors/a5}, limit: 6}
              none: {collection: stories, where: [[score, ==, -1]]}
          - id: talk
            queries:
              comments: {collection_group: comments, where: [[approved, ==, true]], order_by: [[likes, desc]], limit: 9}
              s3-comments: {collection: stories/s3/comments}
              recent: {collection_group: comments, where: [[at, '>=', !timestamp now-40d]], order_by: [[at, desc]], limit: 3}
              under-s1: {collection_group: comments, parent: stories/s1, order_by: [likes], start_at: {document: stories/s2/comments/c2}, limit: 3}
        """)
    }

    /// The seven best published stories by score.
    static let topBundle = """
          - id: front
            queries:
              top: {collection: stories, where: [[published, ==, true]], order_by: [[score, desc]], limit: 7}
        """

    /// A site reading `exports/*.ndjson`, never published, with the top-level `settings` and the
    /// items of `bundles:` (indented as such).
    static func site(_ settings: String = "", bundles: String) -> String {
        """
        project: demo
        previous: none
        \(settings)
        inputs:
          - path: exports/*.ndjson
            format: rest-ndjson
        bundles:
        \(bundles)

        """
    }

    /// Writes `data` and `site` as `pipeline.yml`, and the site with the oracle's bundle as
    /// `oracle.yml`.
    static func write(_ directory: TemporaryDirectory, data: [String: String], site: String) throws {
        for (path, text) in data { try directory.write(path, text) }
        try directory.write("pipeline.yml", site)
        try directory.write("oracle.yml", site + oracleBundle)
    }

    static func write(_ directory: TemporaryDirectory, data: [String: String], snapshotTime: Bool, lastWins: Bool = false) throws {
        try write(directory, data: data, site: config(snapshotTime: snapshotTime, lastWins: lastWins))
    }

    static func build(_ directory: TemporaryDirectory, config: String, output: String) throws -> BuildReport {
        try SiteBuilder(config: try PipelineConfig.load(file: directory.file(config)), outputDirectory: directory.file(output)).build()
    }

    /// The bundle files of `output` (raw and gzip), by name.
    static func bundles(_ directory: TemporaryDirectory, _ output: String) throws -> [String: Data] {
        try TemporaryDirectory(existing: directory.file(output)).snapshot().filter { $0.key.hasPrefix("bundles/") && $0.key.contains(".bundle") }
    }

    /// Every bundle file of `output` (at least `count`) is in the oracle's output, byte for byte.
    static func expectOracle(
        _ directory: TemporaryDirectory, _ output: String, _ oracle: String, count: Int = 4, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let built = try bundles(directory, output)
        let expected = try bundles(directory, oracle)
        #expect(built.count >= count, sourceLocation: sourceLocation)
        for (name, bytes) in built {
            #expect(expected[name] == bytes, "\(name)", sourceLocation: sourceLocation)
        }
    }

    /// With `duplicates: last-wins` a later version of one of a limit query's best documents can
    /// leave its results, so every match is held.
    @Test(arguments: [(false, false), (true, false), (false, true)])
    func theBundlesAreThoseOfEveryDocumentAtAnyShardCount(snapshotTime: Bool, lastWins: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.write(directory, data: Self.data(edits: lastWins), snapshotTime: snapshotTime, lastWins: lastWins)
        let plain = try Self.build(directory, config: "pipeline.yml", output: "plain")
        _ = try Self.build(directory, config: "oracle.yml", output: "oracle")
        #expect(plain.inputDocuments == 240 + 180 + 30)
        #expect(plain.bundles.map(\.documents).allSatisfy { $0 > 0 })
        #expect(try CandidateRules(PipelineConfig.load(file: directory.file("oracle.yml")), previous: nil) == nil, "the oracle holds every document")
        try Self.expectOracle(directory, "plain", "oracle")
        let config = try PipelineConfig.load(file: directory.file("pipeline.yml"))
        for shards in [1, 2, 3, 8] {
            let builder = SiteBuilder(config: config, outputDirectory: directory.file("merged-\(shards)"))
            let partials = directory.file("partials-\(shards)")
            for index in 0..<shards { _ = try builder.map(Shard(index: index, count: shards), into: partials) }
            let merged = try builder.build(inputs: .partials(directories: [partials]))
            #expect(merged.inputDocuments == plain.inputDocuments)
            #expect(try Self.bundles(directory, "merged-\(shards)") == (try Self.bundles(directory, "plain")), "\(shards) shards")
        }
    }

    /// Under last-wins a later version takes its path's place even runs of documents later: a
    /// candidate replaced by a version no query returns is no candidate any more.
    @Test func aLaterVersionReplacesACandidateRunsOfDocumentsLater() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let stories = (0..<9_000).map { index in
            NDJSON.document("stories/s\(index)", NDJSON.fields(["score": NDJSON.int(index % 1_000), "published": NDJSON.bool(true)]))
        }
        // The best stories of the first run, unpublished in the last run.
        let edits = (0..<9_000).filter { $0 % 1_000 >= 995 && $0 < 4_000 }.map { index in
            NDJSON.document("stories/s\(index)", NDJSON.fields(["score": NDJSON.int(index % 1_000), "published": NDJSON.bool(false)]), update: "2024-02-01T00:00:00Z")
        }
        let data = [
            "exports/a-stories.ndjson": stories.joined(separator: "\n") + "\n", "exports/b-edits.ndjson": edits.joined(separator: "\n") + "\n",
            "exports/c-authors.ndjson": NDJSON.document("authors/a0") + "\n",
        ]
        try Self.write(directory, data: data, site: Self.site("duplicates: last-wins", bundles: Self.topBundle))
        let plain = try Self.build(directory, config: "pipeline.yml", output: "plain")
        _ = try Self.build(directory, config: "oracle.yml", output: "oracle")
        #expect(plain.inputDocuments == 9_001)
        try Self.expectOracle(directory, "plain", "oracle", count: 2)
    }

    /// A `for_each` over values in the data whose template fixes where its documents are: every
    /// document in its queries' scope, and those its values are read from, are candidates; the
    /// others are judged as in any site.
    @Test func aForEachOverTheDataHoldsItsScope() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.write(directory, data: Self.data(), site: Self.site(bundles: """
              - id: "cat-{category}"
                for_each: {field: category, collection: stories}
                queries:
                  "cat-{category}": {collection: stories, where: [[category, ==, "{category}"]], order_by: [[score, desc]], limit: 3}
              - id: talk
                queries:
                  comments: {collection_group: comments, where: [[approved, ==, true]], order_by: [[likes, desc]], limit: 9}
            """))
        let plain = try Self.build(directory, config: "pipeline.yml", output: "plain")
        _ = try Self.build(directory, config: "oracle.yml", output: "oracle")
        #expect(plain.bundles.map(\.id) == ["cat-news", "cat-sport", "cat-tech", "talk"])
        try Self.expectOracle(directory, "plain", "oracle", count: 8)

        let config = try PipelineConfig.load(file: directory.file("pipeline.yml"))
        let inputs = try LoadedInputs.load(config, candidates: try CandidateRules(config, previous: nil), in: directory.path) { _ in }
        #expect(inputs.documentCount == 240 + 180 + 30)
        #expect(inputs.store.count < 240 + 40, "the stories, and the comments among the best 9 as they were read")
        #expect(inputs.store.document(at: try ResourcePath(parsing: "authors/a1")) == nil)
    }

    /// Where a `for_each`'s documents are is fixed unless a value can move it: a placeholder
    /// anywhere but in ids, names, filters, orderBys and limits (keys matched by their text, tags
    /// aside, as the parser matches them), or a `structured_query:`. When it is fixed, the
    /// documents in its queries' scopes, those it lists and those its values come from are
    /// candidates; when it is not, every document is. Over listed values, its bundles are made
    /// before reading and judged as any.
    @Test(arguments: [
        (#"queries: {"c-{category}": {collection: stories, where: [[category, ==, "{category}"]], order_by: ["score.{category}"], limit: 3}}"#, true),
        (#"queries: {"c-{category}": {collection: "stories/{category}/comments"}}"#, false),
        (#"queries: {"c-{category}": {!x collection: "stories/{category}/comments"}}"#, false),
        (#"!x queries: {"c-{category}": {collection: "stories/{category}/comments"}}"#, false),
        (#"queries: {"c-{category}": {collection_group: comments, parent: "stories/{category}"}}"#, false),
        (#"queries: {"c-{category}": {collection: stories, order_by: [score], start_at: {document: "stories/{category}"}}}"#, false),
        (#"queries: {"c-{category}": {structured_query: {from: [{collectionId: stories}]}}}"#, false),
        (#"documents: ["stories/{category}"]"#, false),
        (#"documents: [authors/a1]"#, true),
    ])
    func aForEachFixesWhereItsDocumentsAreUnlessAValueCanMoveIt(template: String, fixed: Bool) throws {
        let config = try PipelineConfig.parse(yaml: """
            project: demo
            inputs: [data.ndjson]
            bundles:
              - id: "cat-{category}"
                for_each: {field: category, collection: notes}
                \(template)
            """, file: "pipeline.yml", baseDirectory: "/nonexistent")
        let rules = try CandidateRules(config, previous: nil)
        #expect((rules != nil) == fixed)
        let certain = { (text: String) in rules?.verdict(on: Document(path: path(text), fields: MapValue())).certain }
        #expect(certain("notes/n1") == (fixed ? true : nil))
        #expect(certain("authors/a1") == (fixed ? template.contains("authors/a1") : nil))
        #expect(certain("stories/s1") == (fixed ? template.contains("collection: stories") : nil))

        let listed = try PipelineConfig.parse(yaml: """
            project: demo
            inputs: [data.ndjson]
            bundles:
              - id: "cat-{category}"
                for_each: {values: [a, b], as: category}
                \(template)
            """, file: "pipeline.yml", baseDirectory: "/nonexistent")
        let judged = try #require(try CandidateRules(listed, previous: nil))
        #expect(judged.verdict(on: Document(path: path("notes/n1"), fields: MapValue())).isNone)
    }

    /// Leavers ship again: a document published before is a candidate whatever it holds now, in
    /// one process and in map tasks that read the same previous state.
    @Test func documentsPublishedBeforeShipAgainAsLeavers() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.write(directory, data: Self.data(), snapshotTime: false)
        for output in ["plain", "oracle"] { _ = try Self.build(directory, config: output == "plain" ? "pipeline.yml" : "oracle.yml", output: output) }
        let first = try Self.bundles(directory, "plain")
        try FileManager.default.copyItem(atPath: directory.file("plain"), toPath: directory.file("merged"))

        // The best-scored stories are unpublished (leaving `top`); two stories are deleted.
        try Self.write(directory, data: Self.data(unpublishing: Self.best, deleting: [7, 93]), snapshotTime: false)
        let plain = try Self.build(directory, config: "pipeline.yml", output: "plain")
        _ = try Self.build(directory, config: "oracle.yml", output: "oracle")
        #expect(try Self.bundles(directory, "plain") != first)
        #expect(plain.bundles.reduce(0) { $0 + $1.leavers } > 0)
        try Self.expectOracle(directory, "plain", "oracle")

        let config = try PipelineConfig.load(file: directory.file("pipeline.yml"))
        let builder = SiteBuilder(config: config, outputDirectory: directory.file("merged"))
        for index in 0..<3 { _ = try builder.map(Shard(index: index, count: 3), into: directory.file("partials")) }
        _ = try builder.build(inputs: .partials(directories: [directory.file("partials")]))
        #expect(try Self.bundles(directory, "merged") == (try Self.bundles(directory, "plain")))
    }

    /// A map task writes its candidates whole and the other documents without their fields: a
    /// fraction of what it writes when every document is a candidate.
    @Test func aMapTaskWritesOnlyItsCandidatesWhole() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.write(directory, data: Self.data(), site: Self.site(bundles: Self.topBundle))
        var bytes: [String: Int] = [:]
        for config in ["pipeline.yml", "oracle.yml"] {
            let builder = SiteBuilder(config: try PipelineConfig.load(file: directory.file(config)), outputDirectory: directory.file("site"))
            let report = try builder.map(Shard(index: 0, count: 1), into: directory.file("partials-\(config)"))
            #expect(report.documents == 240 + 180 + 30)
            let header = try JSONDecoder().decode(PartialFiles.Header.self, from: Data(contentsOf: URL(fileURLWithPath: report.partial)))
            bytes[config] = header.documentsBytes
        }
        #expect(bytes["pipeline.yml"]! * 3 < bytes["oracle.yml"]! * 2, "\(bytes)")
    }

    /// A map task keeps what can ship by the previous state it read; the merge refuses its
    /// partial when the site publishes another one since, and publishes nothing.
    @Test func aPartialJudgedByAnotherPreviousStateIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.write(directory, data: Self.data(), snapshotTime: false)
        let config = try PipelineConfig.load(file: directory.file("pipeline.yml"))
        let builder = SiteBuilder(config: config, outputDirectory: directory.file("site"))
        for index in 0..<2 { _ = try builder.map(Shard(index: index, count: 2), into: directory.file("partials")) }
        _ = try builder.build()
        let published = try TemporaryDirectory(existing: directory.file("site")).snapshot()
        let error = try #require(throws: BuildError.self) { try builder.build(inputs: .partials(directories: [directory.file("partials")])) }
        #expect(error.description.contains("another previous state"), "\(error)")
        #expect(try TemporaryDirectory(existing: directory.file("site")).snapshot() == published)
    }

    /// The store holds a limit query's best documents only; under `duplicates: last-wins` (a
    /// later version can replace one of them) and for a query whose values come from the inputs
    /// (a relative time without `snapshot_time:`), every document it can return.
    @Test(arguments: [
        ("duplicates: error", "[]", 3),
        ("duplicates: last-wins", "[]", 240),
        ("duplicates: error", "[[at, '<=', !timestamp now]]", 240),
        ("snapshot_time: 2024-03-01T00:00:00Z", "[[at, '<=', !timestamp now]]", 3),
    ])
    func theStoreHoldsTheCandidates(setting: String, filter: String, held: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for (path, text) in Self.data() { try directory.write(path, text) }
        try directory.write("pipeline.yml", """
            project: demo
            \(setting)
            inputs:
              - path: exports/a-stories.ndjson
                format: rest-ndjson
            bundles:
              - id: b
                queries:
                  best:
                    collection: stories
                    where: \(filter)
                    order_by: [[at, desc]]
                    limit: 3
            """)
        let config = try PipelineConfig.load(file: directory.file("pipeline.yml"))
        let inputs = try LoadedInputs.load(config, candidates: try CandidateRules(config, previous: nil), in: directory.path) { _ in }
        #expect(inputs.documentCount == 240)
        #expect(inputs.store.count == held)
    }

    /// A query over a collection whose documents are none of them candidates still finds the
    /// collection (a typo is an error, an empty result is not).
    @Test func aCollectionOfNoCandidatesExists() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for (path, text) in Self.data() { try directory.write(path, text) }
        try directory.write("pipeline.yml", """
            project: demo
            previous: none
            inputs:
              - path: exports/*.ndjson
                format: rest-ndjson
            bundles:
              - id: b
                queries:
                  none: {collection: stories, where: [[score, ==, -1]]}
                  missing: {collection_group: comments, where: [[likes, ==, -1]]}
            """)
        let report = try Self.build(directory, config: "pipeline.yml", output: "site")
        #expect(report.bundles.map(\.documents) == [0])
        try directory.write("pipeline.yml", try String(contentsOfFile: directory.file("pipeline.yml"), encoding: .utf8).replacingOccurrences(of: "collection_group: comments", with: "collection_group: coments"))
        let error = try #require(throws: BuildError.self) { try Self.build(directory, config: "pipeline.yml", output: "site") }
        #expect(error.description.contains("collection group \"coments\", which has no documents in the inputs (collections present: authors, comments, stories)"), "\(error)")
    }
}
