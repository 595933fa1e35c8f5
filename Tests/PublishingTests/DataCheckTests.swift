import FirestoreModel
import Foundation
import Testing
@testable import PipelineLanguage
@testable import Publishing

/// The config checked against the data (issue 32, point 2): fields no document has, values of
/// a type a field never holds, queries with no result, as golden messages.
@Suite struct DataCheckTests {
    static let data = NDJSON.file(
        NDJSON.document("stories/s1", NDJSON.fields([
            "status": NDJSON.string("published"), "publishedAt": "{\"timestampValue\":\"2024-01-01T00:00:00Z\"}",
            "author": "{\"referenceValue\":\"projects/demo/databases/(default)/documents/authors/zoe\"}", "score": NDJSON.int(3),
            "stats": "{\"mapValue\":{\"fields\":{\"views\":{\"integerValue\":\"10\"}}}}",
        ])),
        NDJSON.document("stories/s2", NDJSON.fields([
            "status": NDJSON.string("draft"), "publishedAt": "{\"nullValue\":null}", "score": "{\"doubleValue\":2.5}",
        ])),
        NDJSON.document("authors/zoe", NDJSON.fields(["name": NDJSON.string("Zoe"), "email": NDJSON.string("zoe@example.com")])),
        NDJSON.document("stories/s1/comments/c1", NDJSON.fields(["text": NDJSON.string("hi")]))
    )

    /// A site whose one bundle has `queries` (YAML at the indentation of a query name).
    static func config(_ queries: String, top: String = "") -> String {
        """
        project: demo
        inputs: [data.ndjson]
        output: site
        previous: none
        \(top)bundles:
          - id: news
            queries:
        \(queries)
        """
    }

    /// The report of building `config` over ``data``, with `file` the config's path.
    static func built(_ config: String) throws -> (report: BuildReport, file: String) {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try SmallSite.write(into: directory, config: config, data: data)
        return (try build(config: file), file)
    }

    @Test func misspelledFieldsAreNamedWithSuggestions() throws {
        let (report, file) = try Self.built(Self.config("""
                  latest:
                    collection: stories
                    where: [[staus, ==, published]]
                    order_by: [[publishdAt, desc]]
                  popular:
                    collection: stories
                    where: [[stats.veiws, '>', 5]]
            """))
        #expect(report.dataWarnings.map(\.description) == [
            "\(file):10:18: bundle \"news\", query \"latest\": no document of collection \"stories\" has the field \"staus\" (in where); did you mean \"status\" or \"stats\"?",
            "\(file):11:21: bundle \"news\", query \"latest\": no document of collection \"stories\" has the field \"publishdAt\" (in order_by); did you mean \"publishedAt\"?",
            "\(file):14:18: bundle \"news\", query \"popular\": no document of collection \"stories\" has the field \"stats.veiws\" (in where); did you mean \"stats.views\"?",
        ])
        #expect(report.dataWarnings.first?.suggestions == ["status", "stats"])
        #expect(report.dataWarnings.first?.kind == .unknownField)
        #expect(report.warnings.starts(with: report.dataWarnings.map(\.description)), "in the report's warnings too, first")
    }

    @Test func valuesOfATypeTheFieldNeverHoldsSayWhatItHolds() throws {
        let (report, file) = try Self.built(Self.config("""
                  by-zoe:
                    collection: stories
                    where: [[author, ==, authors/zoe]]
                  high:
                    collection: stories
                    where: [[score, '>=', "3"]]
                  recent:
                    collection: stories
                    where: [[publishedAt, '>', "2024-01-01"]]
                  tagged:
                    collection: stories
                    where: [[status, array-contains, x]]
                  numbers:
                    collection: stories
                    where: [[score, in, [1, 2.5]]]
            """))
        #expect(report.dataWarnings.map(\.description) == [
            "\(file):10:18: bundle \"news\", query \"by-zoe\": where compares \"author\" with a string (\"authors/zoe\"), but in collection \"stories\" it holds only references (!ref)",
            "\(file):13:18: bundle \"news\", query \"high\": where compares \"score\" with a string (\"3\"), but in collection \"stories\" it holds integers and doubles",
            "\(file):16:18: bundle \"news\", query \"recent\": where compares \"publishedAt\" with a string (\"2024-01-01\"), but in collection \"stories\" it holds null and timestamps (!timestamp)",
            "\(file):19:18: bundle \"news\", query \"tagged\": where uses array-contains on \"status\", but in collection \"stories\" it holds only strings, never lists",
        ])
    }

    @Test func aQueryWithNoResultIsSaid() throws {
        let (report, file) = try Self.built(Self.config("""
                  published:
                    collection: stories
                    where: [[status, ==, Published]]
                  comments:
                    collection_group: comments
                    order_by: [text]
            """))
        #expect(report.dataWarnings.map(\.description) == [
            "\(file):8:7: bundle \"news\", query \"published\" returns no document",
        ])
        #expect(report.dataWarnings.first?.kind == .noResults)
    }

    @Test func cursorsAndCollectionGroupsAreCheckedToo() throws {
        let (report, file) = try Self.built(Self.config("""
                  from-date:
                    collection: stories
                    order_by: [[publishedAt, desc]]
                    start_after: ["2024-06-01"]
                  comments:
                    collection_group: comments
                    order_by: [txt]
            """))
        #expect(report.dataWarnings.map(\.description) == [
            "\(file):10:21: bundle \"news\", query \"from-date\": a cursor compares \"publishedAt\" with a string (\"2024-06-01\"), but in collection \"stories\" it holds null and timestamps (!timestamp)",
            "\(file):14:20: bundle \"news\", query \"comments\": no document of collection group \"comments\" has the field \"txt\" (in order_by); did you mean \"text\"?",
        ])
    }

    @Test func fieldRulesAreCheckedToo() throws {
        let (report, file) = try Self.built(Self.config("""
                  authors:
                    collection: authors
            """, top: "redact: {authors: [emial]}\n"))
        #expect(report.dataWarnings.map(\.description) == [
            "\(file):5:10: bundle \"news\": the redact: rule for \"authors\" names \"emial\", which no document of collection \"authors\" has; did you mean \"email\"?",
        ])
    }

    @Test func warningsErrorFailsTheBuildAndPublishesNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try SmallSite.write(into: directory, config: Self.config("""
                  latest:
                    collection: stories
                    order_by: [[publishdAt, desc]]
            """, top: "warnings: error\n"), data: Self.data)
        guard case .dataCheck(let warnings)? = buildError(config: file) else {
            Issue.record("expected the data check to fail the build")
            return
        }
        #expect(warnings.map(\.field) == ["publishdAt"])
        #expect(!FileManager.default.fileExists(atPath: directory.file("site/bundles/manifest.json")))
    }

    @Test func aConfigThatFitsItsDataHasNoWarning() throws {
        let (report, _) = try Self.built(Self.config("""
                  latest:
                    collection: stories
                    where: [[status, ==, published], [score, in, [1, 3]], [author, ==, !ref authors/zoe]]
                    order_by: [[publishedAt, desc]]
                  comments:
                    collection_group: comments
                    order_by: [text]
            """, top: "fields: {authors: [name]}\n"))
        #expect(report.dataWarnings == [])
        #expect(report.warnings == [])
    }
}
