import Foundation
import Testing

/// What a new user meets in the first hour (issue 32): config mistakes caught with a suggestion,
/// and commands that need no extra flags.
@Suite("bundlepress: the first hour")
struct FirstHourTests {
    @Test func verifyWithoutADirectoryChecksTheConfigsOutput() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        try example.write("pipeline.yml", try example.read("pipeline.yml").replacingOccurrences(of: "output: site\n", with: "output: public\n"))
        #expect(try example.run("build", "--quiet").status == 0)
        let result = try example.run("verify")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("8 bundles ok"), "\(result)")
    }

    @Test func anUnknownQueryNameSuggestsTheNearestAndIs64() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let result = try example.run("query", "latest-storys")
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.hasPrefix("error: pipeline.yml has no named query \"latest-storys\"; did you mean \"latest-stories\"? (named queries: "), "\(result)")
    }

    @Test func convertTakesTheProjectTheInputNames() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let named = try example.run("convert", "exports/authors.ndjson")
        #expect(named.status == 0, "\(named)")
        #expect(named.stdout.hasPrefix("{\"name\":\"projects/bundlepress-demo/databases/(default)/documents/authors/"), "\(named.stdout.prefix(200))")

        let unnamed = repositoryRoot.appendingPathComponent("Tests/ExportReaderTests/Fixtures/node-firestore-import-export/full-export.json").path
        let asked = try example.run("convert", unnamed)
        #expect(asked.status == 64, "\(asked)")
        #expect(asked.stderr.contains("the input names no project") && asked.stderr.contains("give --project"), "\(asked)")
        #expect(try example.run("convert", unnamed, "--project", "mine").status == 0)
    }

    @Test func aMisspelledFieldIsAWarningAndWithWarningsErrorA78() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let config = try example.read("pipeline.yml")
        let misspelled = config.replacingOccurrences(of: "order_by: [[publishedAt, desc]]", with: "order_by: [[publishdAt, desc]]")
        #expect(misspelled != config)
        try example.write("pipeline.yml", misspelled)
        let warned = try example.run("build", "--json")
        #expect(warned.status == 0, "\(warned)")
        let report = try jsonObject(warned.stdout)
        let warnings = try #require(report["dataWarnings"] as? [[String: Any]])
        #expect(warnings.contains { ($0["field"] as? String) == "publishdAt" && ($0["suggestions"] as? [String])?.first == "publishedAt" }, "\(warnings)")

        try example.write("pipeline.yml", "warnings: error\n" + misspelled)
        let failed = try example.run("build", "--force")
        #expect(failed.status == 78, "\(failed)")
        #expect(failed.stderr.contains("has the field \"publishdAt\" (in order_by); did you mean \"publishedAt\""), "\(failed)")
        #expect(failed.stderr.contains("nothing was published (warnings: error)"), "\(failed)")
    }

    @Test func anUnquotedOperatorSaysQuoteIt() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        try example.write("pipeline.yml", try example.read("pipeline.yml") + """
              - id: extra
                queries:
                  extra-high:
                    collection: stories
                    where: [[score, >=, 100]]

            """)
        let result = try example.run("build")
        #expect(result.status == 78, "\(result)")
        #expect(result.stderr.contains("quote the operator: '>='"), "\(result)")
    }
}
