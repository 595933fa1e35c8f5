import FirestoreModel
import Foundation
import Testing
@testable import Authoring
@testable import PipelineLanguage

/// `bundlepress init --from-extension`: the extension's bundle specs in the exports become
/// `extension:`, each parameter with the values the data holds for it.
@Suite struct ExtensionStarterTests {
    static func string(_ text: String) -> String { #"{"stringValue":"\#(text)"}"# }
    static func int(_ number: Int) -> String { #"{"integerValue":"\#(number)"}"# }
    static func bool(_ flag: Bool) -> String { #"{"booleanValue":\#(flag)}"# }
    static func array(_ items: String...) -> String { #"{"arrayValue":{"values":[\#(items.joined(separator: ","))]}}"# }
    static func map(_ pairs: KeyValuePairs<String, String>) -> String { #"{"mapValue":{"fields":\#(fields(pairs))}}"# }
    static func fields(_ pairs: KeyValuePairs<String, String>) -> String { "{" + pairs.map { #""\#($0.key)":\#($0.value)"# }.joined(separator: ",") + "}" }
    static func whereCondition(_ field: String, _ op: String, _ value: String) -> String {
        map(["where": array(string(field), string(op), string(value))])
    }

    /// Products, and specs: without parameters; with a required parameter compared by `==` and
    /// an optional one compared by `<=` (no values found); with one compared by
    /// `array-contains`; with an integer parameter; with one used only in a collection path.
    static let export = [
        StarterConfigTests.rest("products/p1", fields(["city": string("berlin"), "year": int(2024), "tags": array(string("new"), string("sale"))])),
        StarterConfigTests.rest("products/p2", fields(["city": string("austin"), "year": int(2023), "tags": array(string("sale"))])),
        StarterConfigTests.rest("products/p3", fields(["city": string("new york"), "year": int(2023)])),
        StarterConfigTests.rest("products/p4", fields(["city": int(7)])),
        StarterConfigTests.rest("bundles/latest", fields([
            "queries": map(["latest": map(["collection": string("products"), "conditions": array(map(["limit": int(2)]))])]),
            "clientCache": string("300"),
        ])),
        StarterConfigTests.rest("bundles/by-city", fields([
            "params": map(["city": map(["required": bool(true)]), "maxYear": map(["type": string("integer")])]),
            "queries": map(["products": map([
                "collection": string("products"),
                "conditions": array(whereCondition("city", "==", "$city"), whereCondition("year", "<=", "$maxYear")),
            ])]),
        ])),
        StarterConfigTests.rest("bundles/by-tag", fields([
            "params": map(["tag": map(["type": string("string")])]),
            "queries": map(["tagged": map(["collection": string("products"), "conditions": array(whereCondition("tags", "array-contains", "$tag"))])]),
        ])),
        StarterConfigTests.rest("bundles/by-year", fields([
            "params": map(["year": map(["type": string("integer"), "required": bool(true)])]),
            "queries": map(["of-year": map(["collection": string("products"), "conditions": array(whereCondition("year", "==", "$year"))])]),
        ])),
        StarterConfigTests.rest("bundles/shelf", fields([
            "params": map(["shelf": map(["required": bool(true)])]),
            "queries": map(["items": map(["collection": string("shelves/$shelf/items")])]),
        ])),
    ].joined(separator: "\n") + "\n"

    static let golden = """

        # The bundle specs of the firestore-bundle-builder extension, read from bundles in the exports:
        # every build makes their bundles from the specs the export holds, so keep editing them in Firestore
        # (or the extension's dashboard). A spec's bundle is also published at /bundles/<specId> (with
        # parameters /bundles/<specId>/<param>/<value>…): docs/migrating-from-the-extension.md.
        # Other collections are not published: add bundles: of your own beside the specs' (docs/pipeline.md).
        extension:
          collection: bundles
          # Without parameters, one bundle each: latest.
          # With parameters, one bundle per value listed (per combination, with several parameters):
          params:
            by-city:
              # city (string, required): the 3 values of city found in the exports.
              # Without this list each build takes that field's values itself, new ones included.
              city: [austin, berlin, "new york"]
              # maxYear (integer): no where compares a field with it (by == or array-contains, over a fixed collection).
              # List the values to build (a build stops at a spec using it without values):
              # maxYear: [...]
            by-tag:
              # tag (string): the 2 values of tags found in the exports.
              tag: [new, sale]
            by-year:
              # year (integer, required): the 2 values of year found in the exports.
              # Without this list each build takes that field's values itself, new ones included.
              year: ["2023", "2024"]
            # shelf:
              # shelf (string, required): no where compares a field with it (by == or array-contains, over a fixed collection).
              # List the values to build, and uncomment shelf: above (a build stops at a spec using it without values):
              # shelf: [...]

        """

    @Test func theSpecsBecomeExtensionWithTheValuesFoundAndCommentsWhereNoneAre() throws {
        let directory = try StarterConfigTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try StarterConfigTests.write(Self.export, to: directory + "/export.ndjson")
        var survey = ExportSurvey(keepingDocuments: true)
        survey.scan(directory, excluding: [])
        let specs = try SpecSurvey(collection: ResourcePath(segments: ["bundles"]), in: survey)
        #expect(specs.specs.map(\.id) == ["by-city", "by-tag", "by-year", "latest", "shelf"])
        let yaml = StarterConfig.yaml(for: survey, in: directory, project: nil, specs: specs)
        let tail = try #require(yaml.range(of: "\n# The bundle specs")).lowerBound
        #expect(String(yaml[tail...]) == Self.golden, "\(yaml)")
        // It loads, the values as written, and no bundle per collection publishes the data.
        let config = try PipelineConfig.parse(yaml: yaml, file: "pipeline.yml", baseDirectory: directory)
        #expect(config.bundles.isEmpty)
        let listed = try #require(config.extensionConfig).listed
        #expect(listed["by-city"]?["city"]?.values == [.text("austin"), .text("berlin"), .text("new york")])
        #expect(listed["by-year"]?["year"]?.values == [.text("2023"), .text("2024")])
        #expect(listed["shelf"] == nil)
    }

    /// Many values continue the flow list on further lines, and it reads back the same.
    @Test func manyValuesWrapAndReadBack() throws {
        let directory = try StarterConfigTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cities = (1...40).map { "city-number-\($0)" }
        try StarterConfigTests.write(
            (cities.enumerated().map { StarterConfigTests.rest("products/p\($0.offset)", Self.fields(["city": Self.string($0.element)])) }
                + [StarterConfigTests.rest("specs/by-city", Self.fields([
                    "params": Self.map(["city": Self.map(["required": Self.bool(true)])]),
                    "queries": Self.map(["products": Self.map(["collection": Self.string("products"), "conditions": Self.array(Self.whereCondition("city", "==", "$city"))])]),
                ]))]).joined(separator: "\n") + "\n",
            to: directory + "/export.ndjson")
        var survey = ExportSurvey(keepingDocuments: true)
        survey.scan(directory, excluding: [])
        let yaml = StarterConfig.yaml(for: survey, in: directory, project: nil, specs: try SpecSurvey(collection: ResourcePath(segments: ["specs"]), in: survey))
        #expect(yaml.contains("  collection: specs\n"))
        let valueLines = yaml.split(separator: "\n").filter { $0.contains("city-number-") }
        #expect(valueLines.count > 1 && valueLines.allSatisfy { $0.count <= 110 }, "\(yaml)")
        let config = try PipelineConfig.parse(yaml: yaml, file: "pipeline.yml", baseDirectory: directory)
        let values = try #require(config.extensionConfig?.listed["by-city"]?["city"]).values
        #expect(values == cities.sorted().map(SpecParameterValue.text))
    }

    @Test func exportsWithoutSpecsAreAnErrorNamingTheCollectionsFound() throws {
        let directory = try StarterConfigTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try StarterConfigTests.write(StarterConfigTests.rest("products/p1", Self.fields(["city": Self.string("x")])) + "\n", to: directory + "/export.ndjson")
        var survey = ExportSurvey(keepingDocuments: true)
        survey.scan(directory, excluding: [])
        #expect {
            try SpecSurvey(collection: ResourcePath(segments: ["bundles"]), in: survey)
        } throws: { error in
            "\(error)".hasPrefix("the exports hold no bundle spec in collection bundles (top-level collections: products);")
        }
    }

    /// A spec a build would refuse is refused here, with the build's message.
    @Test func aSpecTheBuildRefusesIsAnError() throws {
        let directory = try StarterConfigTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try StarterConfigTests.write(StarterConfigTests.rest("bundles/empty", Self.fields(["clientCache": Self.int(5)])) + "\n", to: directory + "/export.ndjson")
        var survey = ExportSurvey(keepingDocuments: true)
        survey.scan(directory, excluding: [])
        #expect {
            try SpecSurvey(collection: ResourcePath(segments: ["bundles"]), in: survey)
        } throws: { error in
            guard case .invalidSpec = error as? SpecSurvey.Problem else { return false }
            return "\(error)" == "bundle spec bundles/empty: it has neither docs nor queries; its bundle would be empty"
        }
    }
}
