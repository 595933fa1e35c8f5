import FirestoreModel
import Foundation
import JSONCore
import PipelineLanguage
import Testing
@testable import Publishing

@Suite("Documents set aside whole")
struct DocumentArchiveTests {
    private static func fields(_ index: Int) -> MapValue {
        var fields = MapValue()
        fields["n"] = .integer(Int64(index))
        fields["text"] = .string(String(repeating: "é\(index)", count: index % 50))
        fields["nested"] = .map(MapValue([("list", .array([.boolean(index.isMultiple(of: 2)), .double(Double(index) / 3)]))]))
        fields["at"] = .reference(ResourceName(database: DatabaseID(project: "demo"), path: path("c/d\(index)")))
        return fields
    }

    private static func encoded(_ fields: MapValue) -> [UInt8] {
        var writer = JSONWriter()
        fields.encodeFields(into: &writer)
        return writer.bytes
    }

    /// Read back in any order, across the writer's buffer flushes, every document's fields are
    /// as written: the same bytes, and decoded, the same values.
    @Test func fieldsComeBackWhole() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let writer = try DocumentArchive.Writer(directory: directory.path)
        let count = 20_000
        let positions = try (0..<count).map { try writer.append(Self.encoded(Self.fields($0))) }
        #expect(positions.last!.offset + positions.last!.length > 1 << 20, "the test crosses a buffer flush")
        let archive = try writer.finish()
        for index in stride(from: count - 1, through: 0, by: -997) {
            #expect(try archive.encodedFields(at: positions[index]) == Self.encoded(Self.fields(index)))
            #expect(Value.map(try archive.fields(at: positions[index], database: DatabaseID(project: "demo"))) == .map(Self.fields(index)))
        }
    }

    /// The file has no name from the start: nothing is left behind, however the build ends.
    @Test func theFileLeavesNothingBehind() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let writer = try DocumentArchive.Writer(directory: directory.path)
        let position = try writer.append(Self.encoded(Self.fields(1)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
        let archive = try writer.finish()
        #expect(try archive.encodedFields(at: position) == Self.encoded(Self.fields(1)))
    }

    /// A position that is not a document's is an error, not a crash.
    @Test func aWrongPositionIsAnError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let writer = try DocumentArchive.Writer(directory: directory.path)
        let position = try writer.append(Self.encoded(Self.fields(7)))
        let archive = try writer.finish()
        let database = DatabaseID(project: "demo")
        #expect(throws: PublishError.self) { try archive.fields(at: DocumentArchive.Position(offset: position.offset + 1, length: position.length - 1), database: database) }
        #expect(throws: PublishError.self) { try archive.encodedFields(at: DocumentArchive.Position(offset: position.offset, length: position.length + 10)) }
    }

    /// The merge of a map task's partial and a plain build keep the same fields of each document
    /// in memory: only those the named queries read.
    @Test func theStoreKeepsOnlyWhatQueriesRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = NDJSON.file(
            NDJSON.document("stories/s1", NDJSON.fields(["published": NDJSON.bool(true), "title": NDJSON.string("One"), "n": NDJSON.int(1)])),
            NDJSON.document("authors/a1", NDJSON.fields(["name": NDJSON.string("Ada")])))
        let file = try SmallSite.write(into: directory, config: """
            project: demo
            inputs: [data.ndjson]
            bundles:
              - id: b
                queries:
                  published:
                    collection: stories
                    where: [[published, ==, true]]
                    order_by: [[n, desc]]
                  authors:
                    collection: authors
            """, data: data)
        let config = try PipelineConfig.load(file: file)
        var inputs = try LoadedInputs.load(config, candidates: try CandidateRules(config, previous: nil), in: directory.path) { _ in }
        _ = try inputs.resolve(config)
        let story = try #require(inputs.store.document(at: path("stories/s1")))
        #expect(story.fields.fields.map(\.key) == ["n", "published"])
        #expect(try inputs.setAside.whole(story).fields.fields.map(\.key) == ["n", "published", "title"])
        let author = try #require(inputs.store.document(at: path("authors/a1")))
        #expect(author.fields.fields.isEmpty)
        #expect(try inputs.setAside.whole(author).fields["name"] == .string("Ada"))
    }

    /// Only the documents that can ship are set aside and held in the store: in a named query's
    /// scope (a collection, or a collection group under its parent), listed by `documents:`, or
    /// published before. The others still count (CandidateTests: `for_each`).
    @Test func onlyCandidatesAreSetAside() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let paths = ["stories/s1", "stories/s1/comments/c1", "other/o1/comments/c2", "notes/n1", "misc/m1", "authors/a1"]
        let data = paths.map { NDJSON.document($0, NDJSON.fields(["name": NDJSON.string($0)])) }.joined(separator: "\n") + "\n"
        let file = try SmallSite.write(into: directory, config: """
            project: demo
            inputs: [data.ndjson]
            bundles:
              - id: b
                documents: [notes/n1]
                queries:
                  stories: {collection: stories}
                  comments: {collection_group: comments, parent: stories/s1}
            """, data: data)
        let config = try PipelineConfig.load(file: file)
        let version = ShippedVersion.existing(updateTime: timestamp("2024-01-01T00:00:00Z"), fingerprint: DocumentFingerprint(bits: 1))
        let previous = SiteHistory(
            siteTime: timestamp("2024-01-02T00:00:00Z"), manifestSHA256: nil,
            bundles: ["gone": BundleHistory(createTime: timestamp("2024-01-02T00:00:00Z"), contentDigest: "", current: [path("misc/m1"): version], earlier: [:])])
        let rules = try #require(try CandidateRules(config, previous: previous))
        let inputs = try LoadedInputs.load(config, candidates: rules, in: directory.path) { _ in }
        for (text, candidate) in zip(paths, [true, true, false, true, true, false]) {
            let document = inputs.store.document(at: path(text))
            #expect((document != nil) == candidate, "\(text)")
            let name = try document.flatMap { try inputs.setAside.whole($0).fields["name"] }
            #expect(name == (candidate ? Value.string(text) : nil), "\(text)")
        }
        #expect(inputs.documentCount == paths.count)
    }
}
