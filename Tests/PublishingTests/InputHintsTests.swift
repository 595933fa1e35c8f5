import BundleFormat
import ExportReader
import FirestoreModel
import Foundation
import JSONCore
import Testing
@testable import PipelineLanguage
@testable import Publishing

@Suite("Input hints in pipeline.yml")
struct InputHintsTests {
    static let bundles = """
        bundles:
          - id: b
            documents: [c/a]

        """

    @Test func hintsAreReadPerInput() throws {
        let config = try parseConfig("""
            project: demo
            inputs:
              - path: exports/legacy.json
                format: node-firestore-import-export
                hints:
                  timestamps: [updated]
                  doubles: [density, area]
                  geopoints: [loc]
                  references: [mayor, "`a.b`.c"]
                  bytes: [logo]
              - path: exports/backup.json
              - exports/*.ndjson

            """ + Self.bundles)
        #expect(config.inputs[0].hints.entries.map { "\($0.kind.rawValue): \($0.path)" } == [
            "doubles: density", "doubles: area", "timestamps: updated", "geopoints: loc", "references: mayor", "references: `a.b`.c", "bytes: logo",
        ])
        #expect(config.inputs[1].hints.isEmpty)
        #expect(config.inputs[2].hints.isEmpty)
    }

    /// Each invalid `hints:` entry (the inputs start on line 3) and where it must be reported.
    static let invalid: [(hints: String, line: Int, column: Int, message: String)] = [
        ("double: [x]", 5, 7, "unknown key \"double\" in inputs[0].hints; expected one of: doubles, timestamps, geopoints, references, bytes"),
        ("doubles: x", 5, 16, "inputs[0].hints.doubles must be a list, found \"x\" (a string)"),
        ("doubles: [a..b]", 5, 17, "inputs[0].hints.doubles[0]: field path \"a..b\" has an empty segment"),
        ("doubles: [__name__]", 5, 17, "inputs[0].hints.doubles[0]: __name__ is the document's name, not a field"),
        ("doubles: [stats]\n      timestamps: [x, stats.at]", 6, 23,
         "inputs[0].hints.timestamps[1]: `stats.at` overlaps `stats`, already listed in doubles; a field gets one type"),
    ]

    @Test(arguments: invalid.indices)
    func invalidHintsAreReportedWhereTheyAre(index: Int) throws {
        let entry = Self.invalid[index]
        let error = configError("project: demo\ninputs:\n  - path: a.json\n    hints:\n      \(entry.hints)\n" + Self.bundles)
        #expect(error?.location == SourceLocation(file: "pipeline.yml", line: entry.line, column: entry.column))
        #expect(error?.message.hasPrefix(entry.message) == true, "\(error?.message ?? "accepted")")
    }

    @Test func typedFormatsTakeNoHints() {
        let error = configError("project: demo\ninputs:\n  - path: a.ndjson\n    format: rest-ndjson\n    hints:\n      doubles: [x]\n" + Self.bundles)
        #expect(error?.location == SourceLocation(file: "pipeline.yml", line: 6, column: 7))
        #expect(error?.message == "hints do not apply to format rest-ndjson, whose values carry their types; "
            + "they are for node-firestore-import-export, firestore-export-import, firestore-backfire, bigquery-changelog")
    }

    /// A jloosli export: SF's density 7.0 was written as `7`.
    static let legacyExport = """
        {"__collections__": {"cities": {
          "LA": {"name": "Los Angeles", "density": 3276.5, "__collections__": {}},
          "SF": {"name": "San Francisco", "density": 7, "mayor": {"__datatype__": "documentReference", "value": "users/lurie"}, "__collections__": {}}
        }, "users": {"lurie": {"name": "Daniel Lurie", "__collections__": {}}}}}
        """

    func legacySite(hints: String) -> String {
        """
        project: bundlepress-demo
        snapshot_time: 2024-06-01T00:00:00Z
        previous: none
        inputs:
          - path: legacy.json
            hints: {\(hints)}
        bundles:
          - id: cities
            queries:
              density-7:
                collection: cities
                where: [[density, in, [7.0]]]

        """
    }

    @Test func aBuildOverALossyExportUsesItsHints() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("legacy.json", Self.legacyExport)
        let site = DatabaseID(project: "bundlepress-demo")
        for (hints, matches) in [("doubles: [density]", ["cities/SF"]), ("", [])] {
            let config = try dir.write("pipeline.yml", legacySite(hints: hints))
            _ = try build(config: config)
            let manifest = try readManifest(site: dir.file("site"))
            let bytes = try Data(contentsOf: URL(fileURLWithPath: dir.file("site/" + manifest.bundles[0].url)))
            let bundle = try BundleReader.read(Array(bytes), database: site)
            // `in` is type-strict: it matches the double 7.0, not the integer 7 the JSON holds.
            // (Once it matched, SF stays in the bundle as a leaver: it changed since clients cached it.)
            #expect(bundle.documents.filter { !$0.metadata.queries.isEmpty }.map(\.metadata.name.path.description) == matches, "hints: \(hints)")
            #expect(bundle.documents.first?.document?.fields["mayor"].map { $0 == .reference(ResourceName(database: site, path: path("users/lurie"))) } ?? true)
        }
    }

    @Test func aHintThatCannotApplyFailsTheBuildAtTheValue() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("legacy.json", Self.legacyExport)
        let config = try dir.write("pipeline.yml", legacySite(hints: "timestamps: [name]"))
        let error = buildError(config: config)
        #expect(error?.description == "\(dir.file("legacy.json")):2:18: the `timestamps` hint `name`: \"Los Angeles\" is not an RFC 3339 timestamp "
            + "(expected a digit at position 1); expected e.g. 2024-05-01T12:34:56.123456789Z")
    }
}
