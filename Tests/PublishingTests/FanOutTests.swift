import FirestoreModel
import Foundation
import JSONCore
import QueryEngine
import Testing
@testable import PipelineLanguage
@testable import Publishing

/// Stories with a category (`cat`), a year, an author reference; two authors.
private enum Newsroom {
    static func author(_ id: String) -> String {
        "{\"referenceValue\":\"projects/demo/databases/(default)/documents/authors/\(id)\"}"
    }

    static let data = NDJSON.file(
        NDJSON.document("stories/s1", NDJSON.fields(["cat": NDJSON.string("news"), "year": NDJSON.int(2024), "author": author("ada")])),
        NDJSON.document("stories/s2", NDJSON.fields(["cat": NDJSON.string("sport"), "year": NDJSON.int(2023), "author": author("bob")])),
        NDJSON.document("stories/s3", NDJSON.fields(["cat": NDJSON.string("news"), "year": NDJSON.int(2024), "author": author("ada")])),
        NDJSON.document("stories/s4", NDJSON.fields(["year": NDJSON.int(2023)])),
        NDJSON.document("stories/s5", NDJSON.fields(["cat": "{\"nullValue\":null}", "year": NDJSON.int(2022)])),
        NDJSON.document("authors/ada", NDJSON.fields(["name": NDJSON.string("Ada")])),
        NDJSON.document("authors/bob", NDJSON.fields(["name": NDJSON.string("Bob")]))
    )

    /// `project`, `inputs` and `bundles:` followed by `bundles` (indented as items of it).
    static func config(_ bundles: String) -> String {
        "project: demo\ninputs: [data.ndjson]\nbundles:\n" + bundles
    }

    static let byCategory = """
          - id: front
            documents: [authors/ada]
          - id: "stories-{cat}"
            for_each: {field: cat, collection: stories}
            queries:
              "stories-by-cat-{cat}":
                collection: stories
                where: [[cat, ==, "{cat}"]]
          - id: back
            documents: [authors/bob]

        """
}

/// The config error a build of `yaml` over the newsroom data throws once the inputs are read.
private func resolveError(_ yaml: String, data: String = Newsroom.data, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> ConfigError? {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let config = try SmallSite.write(into: dir, config: yaml, data: data)
    guard case .config(let error)? = buildError(config: config, sourceLocation: sourceLocation) else {
        Issue.record("expected a config error", sourceLocation: sourceLocation)
        return nil
    }
    return error
}

@Suite("for_each fan-out bundles")
struct FanOutTests {
    @Test func distinctFieldValuesMakeOneBundleEachInPlace() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir, config: Newsroom.config(Newsroom.byCategory), data: Newsroom.data)
        let report = try build(config: config)
        // Values in Firestore order, at the template's place; s4 (no cat) and s5 (null) are skipped.
        #expect(report.bundles.map(\.id) == ["front", "stories-news", "stories-sport", "back"])
        #expect(report.bundles.map(\.namedQueries) == [[], ["stories-by-cat-news"], ["stories-by-cat-sport"], []])

        let site = dir.file("site")
        let manifest = try readManifest(site: site)
        #expect(manifest.bundles.map(\.template) == [nil, "stories-{cat}", "stories-{cat}", nil])
        #expect(manifest.bundles.map(\.parameters) == [nil, ["cat": .string("news")], ["cat": .string("sport")], nil])
        #expect(manifest.namedQueries["stories-by-cat-sport"]?.bundle == "stories-sport")
        let news = try readBundle(site: site, url: manifest.bundles[1].url)
        #expect(news.documents.map(\.metadata.name.path) == [path("stories/s1"), path("stories/s3")])
        #expect(SiteVerifier(siteDirectory: site).verify().problems == [])

        let json = String(decoding: manifest.encoded(), as: UTF8.self)
        #expect(json.contains("\"parameters\" : {\n        \"cat\" : \"news\"\n      },"), "\(json)")
        #expect(json.contains("\"template\" : \"stories-{cat}\","), "\(json)")
    }

    /// A build keeps in memory only the fields queries read, known from the config before the
    /// inputs are read; a placeholder in a field name makes the fields known only after: they
    /// are taken in then (before a cursor's document is read for its values), and the bundles
    /// still carry whole documents.
    @Test func aPlaceholderInAFieldNameReadsTheFieldsItNames() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let map = { (pairs: KeyValuePairs<String, String>) in "{\"mapValue\":{\"fields\":\(NDJSON.fields(pairs))}}" }
        let data = NDJSON.file(
            NDJSON.document("stories/s1", NDJSON.fields([
                "cat": NDJSON.string("news"), "rank": map(["news": NDJSON.int(2), "sport": NDJSON.int(5)]), "tags": map(["news": NDJSON.bool(true)]),
            ])),
            NDJSON.document("stories/s2", NDJSON.fields([
                "cat": NDJSON.string("sport"), "rank": map(["news": NDJSON.int(9), "sport": NDJSON.int(1)]),
                "tags": map(["news": NDJSON.bool(true), "sport": NDJSON.bool(true)]),
            ])),
            NDJSON.document("stories/s3", NDJSON.fields([
                "cat": NDJSON.string("news"), "rank": map(["news": NDJSON.int(3), "sport": NDJSON.int(4)]), "tags": map([:]),
            ])))
        let config = try SmallSite.write(into: dir, config: Newsroom.config("""
              - id: "tagged-{cat}"
                for_each: {field: cat, collection: stories}
                queries:
                  "tagged-{cat}":
                    collection: stories
                    where: [["tags.{cat}", ==, true]]
              - id: "ranked-{cat}"
                for_each: {field: cat, collection: stories}
                queries:
                  "ranked-{cat}":
                    collection: stories
                    order_by: ["rank.{cat}"]
                    start_at: {document: stories/s1}

            """), data: data)
        let report = try build(config: config)
        #expect(report.bundles.map(\.id) == ["tagged-news", "tagged-sport", "ranked-news", "ranked-sport"])
        let site = dir.file("site")
        let manifest = try readManifest(site: site)
        let paths = { (index: Int) in try readBundle(site: site, url: manifest.bundles[index].url).documents.map(\.metadata.name.path) }
        let news = try readBundle(site: site, url: manifest.bundles[0].url)
        #expect(news.documents.map(\.metadata.name.path) == [path("stories/s1"), path("stories/s2")])
        #expect(news.documents.map { $0.document?.fields.fields.map(\.key) ?? [] } == [["cat", "rank", "tags"], ["cat", "rank", "tags"]])
        #expect(try paths(1) == [path("stories/s2")])
        #expect(try paths(2) == [path("stories/s1"), path("stories/s2"), path("stories/s3")])
        #expect(try paths(3) == [path("stories/s1")])
    }

    @Test func integerValuesStayIntegersInQueriesAndBecomeTextInNames() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir, config: Newsroom.config("""
              - id: "year-{year}"
                for_each: {field: year, collection: stories}
                queries:
                  "stories-of-{year}":
                    collection: stories
                    where: [[year, ==, "{year}"]]

            """), data: Newsroom.data)
        let report = try build(config: config)
        #expect(report.bundles.map(\.id) == ["year-2022", "year-2023", "year-2024"])
        // A string "2023" would match no document: the integer placeholder stays an integer.
        #expect(report.bundles.map(\.documents) == [1, 2, 2])
        #expect(try readManifest(site: dir.file("site")).bundles[0].parameters == ["year": .integer(2022)])
    }

    @Test func documentIdsFillPathsAndReferences() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir, config: Newsroom.config("""
              - id: "author-{id}"
                for_each: {documents: authors}
                documents: ["authors/{id}"]
                queries:
                  "stories-by-{id}":
                    collection: stories
                    where: [[author, ==, !ref "authors/{id}"]]

            """), data: Newsroom.data)
        let report = try build(config: config)
        #expect(report.bundles.map(\.id) == ["author-ada", "author-bob"])
        let manifest = try readManifest(site: dir.file("site"))
        let ada = try readBundle(site: dir.file("site"), url: manifest.bundles[0].url)
        #expect(ada.documents.map(\.metadata.name.path) == [path("authors/ada"), path("stories/s1"), path("stories/s3")])
        #expect(manifest.bundles[1].parameters == ["id": .string("bob")])
    }

    @Test func literalValuesAreTypedAndExpandedBeforeInputsAreRead() throws {
        let config = try parseConfig(Newsroom.config("""
              - id: "year-{y}"
                for_each: {values: [2023, "2024"], as: y}
                queries:
                  "in-{y}":
                    collection: stories
                    where: [[year, ==, "{y}"], [note, ==, "{{y}} is {y}"]]

            """))
        #expect(config.bundles.map(\.id) == ["year-2023", "year-2024"])
        #expect(config.bundles.map { $0.queries.map(\.name) } == [["in-2023"], ["in-2024"]])
        let year = FieldPath(segments: ["year"])
        let note = FieldPath(segments: ["note"])
        #expect(config.bundles[0].queries[0].query.filters == [.field(year, .equal, .integer(2023)), .field(note, .equal, .string("{y} is 2023"))])
        #expect(config.bundles[1].queries[0].query.filters == [.field(year, .equal, .string("2024")), .field(note, .equal, .string("{y} is 2024"))])
        #expect(config.bundles[1].fanOut == FanOutBinding(template: "year-{y}", placeholder: "y", value: .string("2024"), origin: nil))
        #expect(config.fanOuts.map(\.dependsOnData) == [false])
        // A query's position still points at the template.
        #expect(config.bundles[1].queries[0].location == SourceLocation(file: "pipeline.yml", line: 7, column: 7))
    }

    @Test func valuesFromTheInputsAreKnownOnlyAfterReadingThem() throws {
        let config = try parseConfig(Newsroom.config(Newsroom.byCategory))
        // Checked with a stand-in value, listed in fanOuts, and built only once the data is read.
        #expect(config.bundles.map(\.id) == ["front", "back"])
        var fanOut = FanOut(
            source: .field(FieldPath(segments: ["cat"]), collection: path("stories")), placeholder: "cat", idTemplate: "stories-{cat}",
            location: SourceLocation(file: "pipeline.yml", line: 7, column: 15))
        // What its queries read, known from the stand-in: a build keeps it of every document.
        fanOut.fieldsRead = [FieldPath(segments: ["cat"])]
        // Where its documents are, known from the stand-in too: no value changes its collection.
        fanOut.scope = FanOut.Scope(
            queries: [Query(collectionID: "stories", filters: [.field(FieldPath(segments: ["cat"]), .equal, .string("cat"))])], documents: [])
        #expect(config.fanOuts == [fanOut])
        #expect(config.fieldsRead.map(\.canonicalString) == ["cat"])
    }

    @Test func namedQueryOfAFanOutRunsByItsFilledName() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = try SmallSite.write(into: dir, config: Newsroom.config(Newsroom.byCategory), data: Newsroom.data)
        let config = try PipelineConfig.load(file: file)
        let result = try QueryRunner.run(namedQuery: "stories-by-cat-news", config: config)
        #expect(result.documents.map(\.path) == [path("stories/s1"), path("stories/s3")])
        do {
            _ = try QueryRunner.run(namedQuery: "stories-by-cat-weather", config: config)
            Issue.record("ran a named query that no value makes")
        } catch {
            #expect(error.description.contains("has no named query \"stories-by-cat-weather\" (named queries: stories-by-cat-news, stories-by-cat-sport)"))
        }
    }

    @Test func valueThatMakesAnInvalidIdNamesTheValueAndItsDocument() throws {
        let data = Newsroom.data + NDJSON.file(NDJSON.document("stories/s9", NDJSON.fields(["cat": NDJSON.string("arts & culture")])))
        let error = try #require(try resolveError(Newsroom.config(Newsroom.byCategory), data: data))
        #expect(error.location.map { [$0.line, $0.column] } == [6, 9])
        #expect(error.message.contains("for_each: cat = \"arts & culture\" (from stories/s9) makes the bundle id \"stories-arts & culture\", which is not valid"))
        #expect(error.message.contains("list usable ones with for_each: {values: [...]}"))
    }

    @Test func valuesThatMakeTheSameIdAreAnError() throws {
        let data = NDJSON.file(
            NDJSON.document("c/a", NDJSON.fields(["code": NDJSON.int(1)])),
            NDJSON.document("c/b", NDJSON.fields(["code": NDJSON.string("1")])))
        let yaml = Newsroom.config("  - id: \"code-{code}\"\n    for_each: {field: code, collection: c}\n    documents: [c/a]\n")
        let error = try #require(try resolveError(yaml, data: data))
        #expect(error.message == "for_each: code = 1 (from c/a) and code = \"1\" (from c/b) both make the bundle id \"code-1\"")
    }

    @Test(arguments: [
        ("{field: categry, collection: stories, as: cat}", "no document of collection \"stories\" has a string or integer field categry; check the field name"),
        ("{field: cat, collection: storys}", "for_each reads collection \"storys\", which has no documents in the inputs (collections present: authors, stories)"),
        ("{field: author, collection: stories, as: cat}", "document stories/s1 has author of type reference; for_each takes string and integer values"),
    ])
    func sourceProblemsFoundInTheData(_ forEach: String, _ message: String) throws {
        let yaml = Newsroom.config(Newsroom.byCategory.replacingOccurrences(of: "{field: cat, collection: stories}", with: forEach))
        let error = try #require(try resolveError(yaml))
        #expect(error.location?.line == 7)
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test func generatedIdCollidingWithAnotherBundle() throws {
        let yaml = Newsroom.config(Newsroom.byCategory.replacingOccurrences(of: "  - id: back\n", with: "  - id: stories-news\n"))
        let error = try #require(try resolveError(yaml))
        #expect(error.message.contains("bundle id \"stories-news\" is used twice (also at "))
    }

    @Test func placeholderSyntax() throws {
        let text = try PlaceholderText(parsing: "a-{x}-{{b}}")
        #expect(text.parts == [.text("a-"), .placeholder("x"), .text("-{b}")])
        #expect(text.filled(with: "1") == "a-1-{b}")
        #expect(try PlaceholderText(parsing: "{x.y_z}").solePlaceholder == "x.y_z")
        #expect(try PlaceholderText(parsing: "").parts == [.text("")])
        for bad in ["{", "a}", "{1x}", "{a b}", "{}"] {
            #expect(throws: PlaceholderSyntaxError.self, "\(bad)") { try PlaceholderText(parsing: bad) }
        }
    }

    @Test func valueOrderIsFirestoreOrder() {
        let values: [FanOutValue] = [.string("b"), .integer(10), .string("B"), .integer(-1), .string("é")]
        #expect(values.sorted() == [.integer(-1), .integer(10), .string("B"), .string("b"), .string("é")])
        // Byte-exact: a precomposed and a decomposed é are different values.
        #expect(FanOutValue.string("\u{E9}") != .string("e\u{301}"))
        #expect(Set([FanOutValue.string("\u{E9}"), .string("e\u{301}")]).count == 2)
    }
}
