import Testing
import JSONCore
@testable import PipelineLanguage

/// One invalid `pipeline.yml` and where and how it must be reported.
struct ConfigErrorCase: Sendable, CustomTestStringConvertible {
    var name: String
    var yaml: String
    var line: Int
    var column: Int
    /// Text the message must contain (what was found and what was expected).
    var fragments: [String]

    var testDescription: String { name }
}

/// The head every case shares; the bundle's first query body starts on line 7, column 9.
private let head = """
    project: demo
    inputs: [data.ndjson]
    bundles:
      - id: b
        queries:
          q:

    """

/// A config whose only query has `body` (written unindented); body line k is file line 6 + k,
/// body column c is file column 8 + c.
private func query(_ body: String, top: String = "") -> String {
    top + head + body.split(separator: "\n", omittingEmptySubsequences: false).map { "        " + $0 }.joined(separator: "\n") + "\n"
}

private let validBundles = """
    bundles:
      - id: b
        documents: [c/a]

    """

/// `explorer:` values that are no folder inside the output (the value starts at line 3, column 11).
private let explorerErrorCases: [ConfigErrorCase] = [
    ("/srv/explorer", ["explorer must be a folder inside the output", "found \"/srv/explorer\""]),
    ("tools/../x", ["without .. or dot folders", "found \"..\""]),
    ("bundles/explorer", ["explorer cannot be under bundles/"]),
    ("\"tools/ex*\"", ["explorer must be a folder of plain names", "found \"ex*\""]),
].map { value, fragments in
    ConfigErrorCase(name: "explorer: \(value)", yaml: "project: demo\ninputs: [data.ndjson]\nexplorer: \(value)\n" + validBundles, line: 3, column: 11, fragments: fragments)
}

let configErrorCases: [ConfigErrorCase] = [
    ConfigErrorCase(
        name: "unknown top-level key",
        yaml: "project: demo\ninputs: [data.ndjson]\noutptu: site\n" + validBundles,
        line: 3, column: 1, fragments: ["unknown key \"outptu\"", "expected one of: project, database", "output"]),
    ConfigErrorCase(
        name: "gzip_level not an integer",
        yaml: "project: demo\ninputs: [data.ndjson]\ngzip_level: high\n" + validBundles,
        line: 3, column: 13, fragments: ["gzip_level must be an integer", "found \"high\""]),
    ConfigErrorCase(
        name: "gzip_level out of range",
        yaml: "project: demo\ninputs: [data.ndjson]\ngzip_level: 13\n" + validBundles,
        line: 3, column: 13, fragments: ["gzip_level must be between 1 and 12", "found 13"]),
    ConfigErrorCase(
        name: "missing project",
        yaml: "inputs: [data.ndjson]\n" + validBundles,
        line: 1, column: 1, fragments: ["needs a \"project\" key"]),
    ConfigErrorCase(
        name: "invalid bundle id",
        yaml: "project: demo\ninputs: [data.ndjson]\nbundles:\n  - id: \"bad/id\"\n    documents: [c/a]\n",
        line: 4, column: 9, fragments: ["bundle id \"bad/id\" is not valid", "A–Z, a–z, 0–9"]),
    ConfigErrorCase(
        name: "duplicate bundle id",
        yaml: "project: demo\ninputs: [data.ndjson]\nbundles:\n  - id: b\n    documents: [c/a]\n  - id: b\n    documents: [c/b]\n",
        line: 6, column: 5, fragments: ["bundle id \"b\" is used twice", "also at pipeline.yml:4:5"]),
    ConfigErrorCase(
        name: "named query defined in two bundles",
        yaml: """
            project: demo
            inputs: [data.ndjson]
            bundles:
              - id: one
                queries:
                  q:
                    collection: c
              - id: two
                queries:
                  q:
                    collection: c

            """,
        line: 10, column: 7, fragments: ["named query \"q\" is defined twice", "also in bundle \"one\" at pipeline.yml:6:7", "unique across the site"]),
    ConfigErrorCase(
        name: "unknown client",
        yaml: "project: demo\ninputs: [data.ndjson]\nclients: [web, windows]\n" + validBundles,
        line: 3, column: 16, fragments: ["unknown client \"windows\"", "expected one of: web, android, ios"]),
    ConfigErrorCase(
        name: "unknown input format",
        yaml: "project: demo\ninputs:\n  - path: data.csv\n    format: csv\n" + validBundles,
        line: 4, column: 13, fragments: ["unknown format \"csv\"", "rest-ndjson"]),
    ConfigErrorCase(
        name: "unknown operator",
        yaml: query("collection: c\nwhere:\n  - [n, =~, 1]"),
        line: 9, column: 17, fragments: ["unknown operator \"=~\"", "expected one of:", "array-contains", "not-in"]),
    ConfigErrorCase(
        name: "bad field path",
        yaml: query("collection: c\nwhere:\n  - [a..b, ==, 1]"),
        line: 9, column: 14, fragments: ["field path \"a..b\" has an empty segment"]),
    ConfigErrorCase(
        name: "limit and limit_to_last together",
        yaml: query("collection: c\norder_by: [n]\nlimit: 5\nlimit_to_last: 5"),
        line: 10, column: 24, fragments: ["use either limit or limit_to_last, not both"]),
    ConfigErrorCase(
        name: "collection that is a document path",
        yaml: query("collection: c/a"),
        line: 7, column: 21, fragments: ["collection \"c/a\" is a document path", "odd number of segments"]),
    ConfigErrorCase(
        name: "bad !timestamp",
        yaml: query("collection: c\nwhere:\n  - [t, <, !timestamp yesterday]"),
        line: 9, column: 20, fragments: ["\"yesterday\" is not an RFC 3339 timestamp"]),
    ConfigErrorCase(
        name: "bad relative !timestamp",
        yaml: query("collection: c\nwhere:\n  - [t, <, !timestamp now-7x]"),
        line: 9, column: 20, fragments: ["relative time \"now-7x\" must look like now, now-7d or now+1h30m"]),
    ConfigErrorCase(
        name: "invalid YAML syntax",
        yaml: "project: demo\ninputs: [data.ndjson\nbundles:\n  - id: b\n",
        line: 3, column: 8, fragments: ["invalid YAML"]),
    ConfigErrorCase(
        name: "duplicate YAML key",
        yaml: "project: demo\ninputs: [data.ndjson]\nproject: other\n" + validBundles,
        line: 1, column: 1, fragments: ["the key \"project\" appears twice"]),
    ConfigErrorCase(
        name: "empty bundle",
        yaml: "project: demo\ninputs: [data.ndjson]\nbundles:\n  - id: b\n",
        line: 4, column: 5, fragments: ["bundle \"b\" has neither documents nor queries"]),
    ConfigErrorCase(
        name: "range filter on null",
        yaml: query("collection: c\nwhere:\n  - [n, <, null]"),
        line: 7, column: 9, fragments: ["bundles[0].queries.q", "'n < null': only == and != can compare with null"]),
    ConfigErrorCase(
        name: "offset in a raw structured_query",
        yaml: query("structured_query:\n  from: [{collectionId: c}]\n  offset: 5"),
        line: 7, column: 9, fragments: ["cannot use offset 5", "silently ignore"]),
    ConfigErrorCase(
        name: "OR filter with the default clients",
        yaml: query("collection: c\nwhere:\n  - or:\n      - [n, ==, 1]\n      - [n, ==, 2]"),
        line: 7, column: 9, fragments: ["Android and iOS clients fail to load a bundle whose named query uses an OR filter", "clients: [web]"]),
    ConfigErrorCase(
        name: "limit_to_last without order_by",
        yaml: query("collection: c\nlimit_to_last: 3"),
        line: 7, column: 9, fragments: ["limitToLast needs an explicit orderBy"]),
    ConfigErrorCase(
        name: "unknown key in a query",
        yaml: query("collection: c\nlimits: 3"),
        line: 8, column: 9, fragments: ["unknown key \"limits\" in bundles[0].queries.q", "limit_to_last"]),
    ConfigErrorCase(
        name: "cursor with both start_at and start_after",
        yaml: query("collection: c\norder_by: [n]\nstart_at: [1]\nstart_after: [1]"),
        line: 10, column: 22, fragments: ["use either start_at or start_after, not both"]),
    ConfigErrorCase(
        name: "project with a slash",
        yaml: "project: a/b\ninputs: [data.ndjson]\n" + validBundles,
        line: 1, column: 10, fragments: ["project must be a non-empty id without '/'"]),
    ConfigErrorCase(
        name: "explicit document that is a collection path",
        yaml: "project: demo\ninputs: [data.ndjson]\nbundles:\n  - id: b\n    documents: [c]\n",
        line: 5, column: 17, fragments: ["\"c\" is not a document path"]),
    ConfigErrorCase(
        name: "empty config",
        yaml: "",
        line: 1, column: 1, fragments: ["the config file is empty"]),
]

@Suite("pipeline.yml errors")
struct ConfigErrorTests {
    @Test(arguments: configErrorCases + cronConfigErrorCases + fanOutConfigErrorCases + explorerErrorCases)
    func reportsWhereAndWhat(_ testCase: ConfigErrorCase) throws {
        let error = try #require(configError(testCase.yaml))
        #expect(error.location == SourceLocation(file: "pipeline.yml", line: testCase.line, column: testCase.column), "\(error)")
        #expect(error.description.hasPrefix("pipeline.yml:\(testCase.line):\(testCase.column): "), "\(error)")
        for fragment in testCase.fragments {
            #expect(error.message.contains(fragment), "message \"\(error.message)\" lacks \"\(fragment)\"")
        }
    }

    @Test func orFilterIsAllowedForWebOnlySites() throws {
        let yaml = query("collection: c\nwhere:\n  - or:\n      - [n, ==, 1]\n      - [n, ==, 2]", top: "clients: [web]\n")
        let config = try parseConfig(yaml)
        #expect(config.clients == .web)
        guard case .composite(.or, let members)? = config.bundles.first?.queries.first?.query.filters.first else {
            Issue.record("expected an OR filter, found \(String(describing: config.bundles.first?.queries.first?.query.filters))")
            return
        }
        #expect(members.count == 2)
    }

    @Test func orFilterNamesOnlyTheTargetedClientThatFails() throws {
        let yaml = query("collection: c\nwhere:\n  - or:\n      - [n, ==, 1]\n      - [n, ==, 2]", top: "clients: [web, ios]\n")
        let error = try #require(configError(yaml))
        #expect(error.message.contains("iOS clients fail"))
        #expect(!error.message.contains("Android"))
        #expect(error.message.contains("clients: [web]"))
    }

    @Test func loadNamesAMissingFile() {
        do {
            _ = try PipelineConfig.load(file: "/nonexistent/pipeline.yml")
            Issue.record("loaded a file that does not exist")
        } catch {
            #expect(error.location == nil)
            #expect(error.message.contains("/nonexistent/pipeline.yml"))
        }
    }

    @Test func validExampleShapeParses() throws {
        let config = try parseConfig(query("collection: c\norder_by: [[n, desc]]\nlimit: 2"))
        #expect(config.database == demo)
        #expect(config.gzipLevel == 6)
        #expect(config.output == "site")
        #expect(config.clients == .all)
        #expect(config.duplicates == .error)
        #expect(config.bundles.map(\.id) == ["b"])
        #expect(config.bundles[0].queries.map(\.name) == ["q"])
        #expect(config.bundles[0].queries[0].location == SourceLocation(file: "pipeline.yml", line: 6, column: 7))
    }
}
