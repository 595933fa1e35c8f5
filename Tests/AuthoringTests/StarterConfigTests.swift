import ExportReader
import Foundation
import Testing
import FirestoreModel
@testable import Authoring
@testable import PipelineLanguage

/// `bundlepress init`'s survey of exports and the config it writes from it.
@Suite struct StarterConfigTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A fresh directory; removed by the caller.
    static func scratch(_ label: String = #function) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("AuthoringTests-\(label.filter(\.isLetter))-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    static func rest(_ path: String, _ fields: String, project: String = "shop-prod", updated: String = "2024-05-01T10:00:00Z") -> String {
        #"{"name":"projects/\#(project)/databases/(default)/documents/\#(path)","fields":\#(fields),"createTime":"2024-01-01T00:00:00Z","updateTime":"\#(updated)"}"#
    }

    @Test func theExampleExportsGiveAConfigThatLoadsWithTheirProjectAndCollections() throws {
        var survey = ExportSurvey()
        let exports = Self.repository.appendingPathComponent("exports").path
        survey.scan(exports, excluding: [])
        #expect(survey.skipped == [])
        #expect(survey.inputs.map { ($0.path as NSString).lastPathComponent } == ["authors.ndjson", "comments.ndjson", "config.ndjson", "stories.ndjson"])
        #expect(survey.inputs.reduce(0) { $0 + $1.documents } == 536)
        #expect(survey.topLevelCollections == ["authors", "site", "stories"])
        #expect(survey.database?.project == "bundlepress-demo")

        let yaml = StarterConfig.yaml(for: survey, project: nil)
        let config = try PipelineConfig.parse(yaml: yaml, file: "pipeline.yml", baseDirectory: "/")
        #expect(config.database.project == "bundlepress-demo")
        #expect(config.bundles.map(\.id) == ["authors", "site", "stories"])
        let stories = try #require(config.bundles.last?.queries.first)
        #expect(stories.name == "stories-latest")
        #expect(stories.query.orderBy.first?.field.canonicalString == "publishedAt" && stories.query.limit == 20)
        #expect(config.fieldPolicy.rules.map { "\($0.collection) \($0.mode.rawValue) \($0.fields.map(\.canonicalString))" } == ["authors redact [\"email\"]"])
        #expect(yaml.contains("# stories: 160 documents; fields: author (reference, 160)"))
        #expect(yaml.contains("order_by: [[launchedAt, desc]]  # its most common timestamp field; the 1 document without it cannot match"))
    }

    /// Drafts: a timestamp field with nulls is still ordered on, and a publish-like field gets
    /// its filter written out, commented, with why (issue 32, point 5).
    @Test func draftsAreOrderedLastAndTheirFilterIsOffered() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.write(
            [
                Self.rest("posts/p1", #"{"title":{"stringValue":"A"},"status":{"stringValue":"published"},"publishedAt":{"timestampValue":"2024-01-01T00:00:00Z"}}"#),
                Self.rest("posts/p2", #"{"title":{"stringValue":"B"},"status":{"stringValue":"draft"},"publishedAt":{"nullValue":null}}"#),
                Self.rest("notes/n1", #"{"published":{"booleanValue":true}}"#),
            ].joined(separator: "\n") + "\n", to: directory + "/posts.ndjson")
        var survey = ExportSurvey()
        survey.scan(directory, excluding: [])
        let yaml = StarterConfig.yaml(for: survey, in: directory, project: nil)
        let config = try PipelineConfig.parse(yaml: yaml, file: "pipeline.yml", baseDirectory: directory)
        let posts = try #require(config.bundles.first { $0.id == "posts" }?.queries.first)
        #expect(posts.name == "posts-latest")
        #expect(posts.query.orderBy.first?.field.canonicalString == "publishedAt")
        #expect(posts.query.filters.isEmpty, "the filter is offered, not applied")
        #expect(yaml.contains("""
                  posts-latest:
                    collection: posts
                    # status looks like it says what is published: without a filter on it, drafts are public
                    # too. Uncomment (and check the value) to publish only what is:
                    # where: [[status, ==, published]]
                    order_by: [[publishedAt, desc]]  # its most common timestamp field
                    # some documents hold null there (drafts?): they sort after every time, descending
                    limit: 20
            """), "\(yaml)")
        #expect(yaml.contains("        # where: [[published, ==, true]]\n        limit: 20  # in document id order"), "\(yaml)")
    }

    @Test func sensitiveTimestampsAreNeitherOrderedOnNorPublished() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.write(
            [
                Self.rest("users/u1", #"{"name":{"stringValue":"Ada"},"dateOfBirth":{"timestampValue":"1990-01-01T00:00:00Z"},"contact":{"mapValue":{"fields":{"phone":{"stringValue":"x"}}}}}"#),
                Self.rest("users/u2", #"{"name":{"stringValue":"Bob"},"dateOfBirth":{"timestampValue":"1991-01-01T00:00:00Z"},"joined":{"timestampValue":"2020-01-01T00:00:00Z"}}"#),
                Self.rest("users/u2/orders/o1", #"{"total":{"integerValue":"3"}}"#),
            ].joined(separator: "\n") + "\n", to: directory + "/data/users.ndjson")
        try Self.write(#"{"name": "my-app", "private": true}"#, to: directory + "/package.json")
        try Self.write("{}", to: directory + "/site/bundles/manifest.json")

        var survey = ExportSurvey()
        survey.scan(directory, excluding: [directory + "/site"])
        #expect(survey.inputs.map(\.path) == [directory + "/data/users.ndjson"])
        #expect(survey.skipped.map(\.path) == [directory + "/package.json"])
        #expect(survey.topLevelCollections == ["users"])
        #expect(survey.collections.map(\.collection) == ["orders", "users"])

        let yaml = StarterConfig.yaml(for: survey, project: "other")
        let config = try PipelineConfig.parse(yaml: yaml, file: "pipeline.yml", baseDirectory: "/")
        #expect(config.database.project == "other")
        #expect(config.fieldPolicy.rules.first?.fields.map(\.canonicalString) == ["contact.phone", "dateOfBirth"])
        let query = try #require(config.bundles.first?.queries.first?.query)
        #expect(query.orderBy.first?.field.canonicalString == "joined", "dateOfBirth is redacted: a query may not order on it")
        #expect(yaml.contains("#   orders: 1 document"))
    }

    @Test func exportsThatNameNoProjectOrOnlyNestedCollections() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.write(Self.rest("shops/s1/items/i1", #"{"sku":{"stringValue":"A-1"}}"#) + "\n", to: directory + "/items.ndjson")
        var survey = ExportSurvey()
        try survey.add(directory + "/items.ndjson")
        let config = try PipelineConfig.parse(yaml: StarterConfig.yaml(for: survey, project: nil), file: "pipeline.yml", baseDirectory: "/")
        let query = try #require(config.bundles.first?.queries.first)
        #expect(query.name == "items-first" && query.query.allDescendants && query.query.collectionID == "items")
    }

    @Test func documentsReadTwiceGetLastWinsAndSayWhichOneIsFirst() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.write(Self.rest("shops/s1", #"{"n":{"integerValue":"1"}}"#) + "\n", to: directory + "/a.ndjson")
        try Self.write([Self.rest("shops/s2", "{}"), Self.rest("shops/s1", #"{"n":{"integerValue":"2"}}"#)].joined(separator: "\n"), to: directory + "/b.ndjson")
        var survey = ExportSurvey()
        try survey.add(directory + "/a.ndjson")
        #expect(survey.firstDuplicate == nil)
        try survey.add(directory + "/b.ndjson")
        #expect(survey.duplicateCount == 1)
        #expect(survey.firstDuplicate == ExportSurvey.Duplicate(document: "shops/s1", first: directory + "/a.ndjson", again: directory + "/b.ndjson"))
        let yaml = StarterConfig.yaml(for: survey, project: nil)
        #expect(yaml.contains("# 1 document is read more than once: the copy read last wins, in the order\n# of the inputs above (shops/s1 from \(directory)/a.ndjson and \(directory)/b.ndjson).\n"), "\(yaml)")
        let config = try PipelineConfig.parse(yaml: yaml, file: "pipeline.yml", baseDirectory: "/")
        #expect(config.duplicates == .lastWins)
        // Documents with update times need no snapshot_time.
        #expect(config.snapshotTime == nil)
    }

    @Test func exportsWithoutUpdateTimesGetTheNewestExportsWriteTime() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.write(#"{"__collections__": {"shops": {"s1": {"name": "A"}}}}"#, to: directory + "/tree.json")
        let written = Date(timeIntervalSince1970: 1_780_000_000)
        try FileManager.default.setAttributes([.modificationDate: written], ofItemAtPath: directory + "/tree.json")
        var survey = ExportSurvey()
        try survey.add(directory + "/tree.json")
        #expect(survey.newestUpdateTime == nil)
        let config = try PipelineConfig.parse(yaml: StarterConfig.yaml(for: survey, project: "shop"), file: "pipeline.yml", baseDirectory: "/")
        #expect(config.snapshotTime == (try Timestamp(seconds: 1_780_000_000, nanos: 0)))
        #expect(config.duplicates == .error)
    }

    /// A managed or emulator export records when it was taken; the build takes its snapshot time
    /// from there, which no modification time may override.
    @Test func exportsThatRecordTheirTimeGetNoSnapshotTime() throws {
        for folder in ["managed", "emulator"] {
            var survey = ExportSurvey()
            try survey.add(Self.repository.appendingPathComponent("Tests/ExportReaderTests/Fixtures/managed-export/\(folder)").path)
            #expect(survey.exportsRecordTheirTime, "\(folder)")
            let config = try PipelineConfig.parse(yaml: StarterConfig.yaml(for: survey, project: "demo"), file: "pipeline.yml", baseDirectory: "/")
            #expect(config.snapshotTime == nil, "\(folder)")
        }
    }

    @Test func aFileThatIsNotAnExportIsAnErrorWhenNamed() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.write("[1, 2]", to: directory + "/numbers.json")
        var survey = ExportSurvey()
        let error = #expect(throws: ExportError.self) { try survey.add(directory + "/numbers.json") }
        guard case .unrecognizedFormat(let location, _)? = error else {
            Issue.record("expected the error for a file in no export format, found \(String(describing: error))")
            return
        }
        #expect(location.file == directory + "/numbers.json")
        #expect(survey.inputs.isEmpty)
    }
}
