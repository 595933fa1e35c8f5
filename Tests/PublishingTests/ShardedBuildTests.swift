import ExportReader
import Foundation
import Testing
@testable import PipelineLanguage
@testable import Publishing

/// A build run as N map tasks and a merge publishes the site a plain build publishes, byte for
/// byte, whatever N, and refuses to merge what does not belong together.
@Suite("Sharded builds")
struct ShardedBuildTests {
    /// A site over generated exports with everything that crosses shards: a large file cut
    /// mid-record by every N, duplicates across files (last-wins), fan-out over data, limits,
    /// limit-to-last, cursors (values and a document), collection groups, listed documents.
    static func generatedProject(_ directory: TemporaryDirectory) throws {
        let categories = ["news", "tech", "sport", "culture", "science"]
        var stories: [String] = []
        for index in 0..<240 {
            let fields = NDJSON.fields([
                "title": NDJSON.string("Story \(index) " + String(repeating: "·", count: index % 37)),
                "category": NDJSON.string(categories[(index * 7) % categories.count]),
                "score": NDJSON.int((index * 7919) % 500),
                "published": NDJSON.bool(index % 4 != 0),
            ])
            stories.append(NDJSON.document("stories/s\(index)", fields, update: "2024-01-\(String(format: "%02d", 2 + index % 27))T00:00:00Z"))
            if index % 3 == 0 {
                stories.append("")  // blank lines are skipped but counted
            }
        }
        try directory.write("exports/stories.ndjson", stories.joined(separator: "\n") + "\n")
        var comments: [String] = []
        for index in 0..<180 {
            let fields = NDJSON.fields(["likes": NDJSON.int((index * 31) % 97), "approved": NDJSON.bool(index % 5 != 0)])
            comments.append(NDJSON.document("stories/s\(index % 40)/comments/c\(index)", fields))
        }
        try directory.write("exports/comments.ndjson", comments.joined(separator: "\r\n") + "\r\n")
        // Later versions of stories from the first file: last-wins, across shards for most N.
        let edits = [3, 57, 120, 239].map { index in
            NDJSON.document(
                "stories/s\(index)",
                NDJSON.fields(["title": NDJSON.string("Edited \(index)"), "category": NDJSON.string("tech"), "score": NDJSON.int(499), "published": NDJSON.bool(true)]),
                update: "2024-02-01T00:00:00Z")
        }
        try directory.write("exports/z-edits.ndjson", NDJSON.file(edits[0], edits[1], edits[2], edits[3]))
        try directory.write("pipeline.yml", """
            project: demo
            previous: none
            duplicates: last-wins
            inputs:
              - path: exports/*.ndjson
                format: rest-ndjson
            bundles:
              - id: front
                documents: [stories/s1]
                queries:
                  top:
                    collection: stories
                    where: [[published, ==, true]]
                    order_by: [[score, desc]]
                    limit: 7
                  oldest:
                    collection: stories
                    order_by: [score]
                    limit_to_last: 4
                  after-400:
                    collection: stories
                    order_by: [[score, desc]]
                    start_after: [400]
                    limit: 5
                  from-s5:
                    collection: stories
                    order_by: [score]
                    start_at: {document: stories/s5}
                    limit: 6
                  comments:
                    collection_group: comments
                    where: [[approved, ==, true]]
                    order_by: [[likes, desc]]
                    limit: 9
              - id: "cat-{category}"
                for_each: {field: category, collection: stories}
                queries:
                  "cat-{category}":
                    collection: stories
                    where: [[category, ==, "{category}"]]
                    order_by: [[score, desc]]
                    limit: 3
              - id: everything
                queries:
                  all-stories: {collection: stories}
                  all-comments: {collection_group: comments}

            """)
    }

    /// Builds `directory`'s project as `shards` map tasks and a merge into `output`.
    static func shardedBuild(_ directory: TemporaryDirectory, shards: Int, output: String) throws -> BuildReport {
        let config = try PipelineConfig.load(file: directory.file("pipeline.yml"))
        let builder = SiteBuilder(config: config, outputDirectory: directory.file(output))
        let partials = directory.file("partials-\(shards)")
        // In reverse, as engines finish tasks in any order.
        for index in (0..<shards).reversed() {
            _ = try builder.map(Shard(index: index, count: shards), into: partials)
        }
        return try builder.build(inputs: .partials(directories: [partials]))
    }

    /// The published files, without the record of the plain build's sources (a merge keeps none).
    static func published(_ directory: TemporaryDirectory, _ output: String) throws -> [String: Data] {
        try TemporaryDirectory(existing: directory.file(output)).snapshot().filter { $0.key != BuildRecord.fileName }
    }

    @Test(arguments: [1, 2, 3, 4, 8, 13])
    func theGeneratedSiteIsByteIdentical(shards: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.generatedProject(directory)
        let config = try PipelineConfig.load(file: directory.file("pipeline.yml"))
        let plain = try SiteBuilder(config: config, outputDirectory: directory.file("plain")).build()
        let merged = try Self.shardedBuild(directory, shards: shards, output: "merged")
        #expect(merged.inputDocuments == plain.inputDocuments && merged.inputFiles == plain.inputFiles && merged.inputBytes == plain.inputBytes)
        #expect(plain.inputDocuments == 240 + 180)
        #expect(plain.bundles.count == 7)
        let expected = try Self.published(directory, "plain")
        #expect(expected.keys.contains { $0.hasSuffix(".bundle.gz") })
        #expect(try Self.published(directory, "merged") == expected)
    }

    @Test(arguments: [1, 2, 4, 8])
    func theExampleSiteIsByteIdentical(shards: Int) throws {
        var site = try ExampleSite()
        defer { site.remove() }
        try site.build(output: "plain")
        try Self.shardedBuild(site.directory, shards: shards, output: "merged")
        #expect(try Self.published(site.directory, "merged") == (try Self.published(site.directory, "plain")))
    }

    /// The merge of any number of partials holds the documents one process reads, in its order,
    /// with its locations (line numbers of ranges counted on across the shards).
    @Test func theMergedDocumentsAreThoseOfOneProcess() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.generatedProject(directory)
        let config = try PipelineConfig.load(file: directory.file("pipeline.yml"))
        let layout = try InputLayout.expand(config)
        let describe = { (documents: DocumentSet) in (0..<documents.count).map { "\(documents[$0].path) \(documents[$0].location)" } }
        let whole = describe(try Partial.readAll(of: layout, config: config, keeping: config.fieldsRead, candidates: nil, in: directory.path) { _ in }.documents)
        #expect(whole.count == 420)
        for count in [2, 5, 16, 97] {
            let partials = directory.file("partials-\(count)")
            for index in 0..<count { _ = try SiteBuilder(config: config).map(Shard(index: index, count: count), into: partials) }
            let merged = try PartialFiles.read(from: [partials], config: config, candidates: try CandidateRules(config, previous: nil), in: directory.path) { _ in }
            #expect(describe(merged.documents) == whole, "\(count) shards")
        }
    }

    @Test func anErrorInALaterShardNamesItsLineInTheWholeFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.generatedProject(directory)
        var lines = try String(contentsOfFile: directory.file("exports/stories.ndjson"), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        lines[300] = lines[300].replacingOccurrences(of: "\"createTime\":\"2024-01-01T00:00:00Z\"", with: "\"createTime\":\"2025-01-01T00:00:00Z\"")[...]
        try directory.write("exports/stories.ndjson", lines.joined(separator: "\n"))
        let config = try PipelineConfig.load(file: directory.file("pipeline.yml"))
        let plain = try #require(throws: BuildError.self) { try SiteBuilder(config: config, outputDirectory: directory.file("plain")).build() }
        #expect(plain.description.contains("stories.ndjson:301:1: document stories/s"), "\(plain)")
        let sharded = try #require(throws: BuildError.self) { try SiteBuilder(config: config).map(Shard(index: 3, count: 4), into: directory.file("partials")) }
        #expect(sharded.description == plain.description)
    }

    @Test func aMissingShardPublishesNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.generatedProject(directory)
        let config = try PipelineConfig.load(file: directory.file("pipeline.yml"))
        let builder = SiteBuilder(config: config, outputDirectory: directory.file("site"))
        try builder.build()
        let before = try Self.published(directory, "site")
        for index in [0, 2, 3] { _ = try builder.map(Shard(index: index, count: 5), into: directory.file("partials")) }
        let error = try #require(throws: BuildError.self) { try builder.build(inputs: .partials(directories: [directory.file("partials")])) }
        #expect(error.description.contains("shards 1, 4 of 5 are missing"))
        #expect(try Self.published(directory, "site") == before)
    }

    @Test func partialsOfAnotherPipelineOrBinaryAreRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.generatedProject(directory)
        let config = try PipelineConfig.load(file: directory.file("pipeline.yml"))
        let partials = directory.file("partials")
        for index in 0..<2 { _ = try SiteBuilder(config: config).map(Shard(index: index, count: 2), into: partials) }

        var edited = config
        edited.source += "# edited\n"
        let otherPipeline = try #require(throws: BuildError.self) {
            try SiteBuilder(config: edited, outputDirectory: directory.file("site")).build(inputs: .partials(directories: [partials]))
        }
        #expect(otherPipeline.description.contains("was made from another pipeline"))

        let header = (partials as NSString).appendingPathComponent("shard-1-of-2.json")
        let text = try String(contentsOfFile: header, encoding: .utf8)
        try text.replacingOccurrences(of: BinaryDigest.current, with: String(repeating: "0", count: 64)).write(toFile: header, atomically: true, encoding: .utf8)
        let otherBinary = try #require(throws: BuildError.self) {
            try SiteBuilder(config: config, outputDirectory: directory.file("site")).build(inputs: .partials(directories: [partials]))
        }
        #expect(otherBinary.description.contains("shard-1-of-2.json was made by another bundlepress binary"))
        #expect(!FileManager.default.fileExists(atPath: directory.file("site/bundles/manifest.json")))
    }

    @Test func partialsOfDifferentShardCountsOrTwiceTheSameShardAreRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.generatedProject(directory)
        let config = try PipelineConfig.load(file: directory.file("pipeline.yml"))
        let builder = SiteBuilder(config: config, outputDirectory: directory.file("site"))
        _ = try builder.map(Shard(index: 0, count: 2), into: directory.file("a"))
        _ = try builder.map(Shard(index: 1, count: 3), into: directory.file("b"))
        let mixed = try #require(throws: BuildError.self) { try builder.build(inputs: .partials(directories: [directory.file("a"), directory.file("b")])) }
        #expect(mixed.description.contains("different numbers of shards"))

        _ = try builder.map(Shard(index: 1, count: 2), into: directory.file("c"))
        _ = try builder.map(Shard(index: 1, count: 2), into: directory.file("d"))
        let twice = try #require(throws: BuildError.self) {
            try builder.build(inputs: .partials(directories: [directory.file("a"), directory.file("c"), directory.file("d")]))
        }
        #expect(twice.description.contains("shard 1 of 2 is there twice"))
    }

    @Test func aTruncatedPartialIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.generatedProject(directory)
        let config = try PipelineConfig.load(file: directory.file("pipeline.yml"))
        let builder = SiteBuilder(config: config, outputDirectory: directory.file("site"))
        for index in 0..<2 { _ = try builder.map(Shard(index: index, count: 2), into: directory.file("partials")) }
        let documents = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.file("partials")).first { $0.hasPrefix("shard-0-of-2.") && $0.hasSuffix(".documents") })
        let handle = try #require(FileHandle(forUpdatingAtPath: directory.file("partials/\(documents)")))
        try handle.truncate(atOffset: 100)
        try handle.close()
        let error = try #require(throws: BuildError.self) { try builder.build(inputs: .partials(directories: [directory.file("partials")])) }
        #expect(error.description.contains("\(documents) holds 100 bytes where its header says"))
    }

    @Test func duplicatesAcrossShardsAreAnErrorUnderDuplicatesError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.generatedProject(directory)
        try directory.write("pipeline.yml", try String(contentsOfFile: directory.file("pipeline.yml"), encoding: .utf8).replacingOccurrences(of: "duplicates: last-wins", with: "duplicates: error"))
        let plain = try #require(throws: BuildError.self) {
            try SiteBuilder(config: try PipelineConfig.load(file: directory.file("pipeline.yml")), outputDirectory: directory.file("plain")).build()
        }
        #expect(plain.description.contains("z-edits.ndjson:1:1: document stories/s3 appears twice (first at "))
        // The merge meets the documents in reading order, whatever the shards: the same duplicate first.
        for shards in [2, 4, 13] {
            let sharded = try #require(throws: BuildError.self) { try Self.shardedBuild(directory, shards: shards, output: "merged") }
            #expect(sharded.description == plain.description, "\(shards) shards")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("merged/bundles/manifest.json")))
    }
}
