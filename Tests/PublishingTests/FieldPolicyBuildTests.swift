import BundleFormat
import FirestoreModel
import Foundation
import Testing
@testable import PipelineLanguage
@testable import Publishing

/// `fields:` and `redact:` in a build: every document a bundle ships is published as its policy
/// says, leavers included, and `bundlepress query` shows what clients get.
@Suite("Field policies in a build")
struct FieldPolicyBuildTests {
    static func user(_ id: String, active: Bool, update: String = "2024-01-02T00:00:00Z") -> String {
        NDJSON.document("users/\(id)", NDJSON.fields([
            "name": NDJSON.string(id), "email": NDJSON.string("\(id)@example.com"), "active": NDJSON.bool(active),
            "stats": "{\"mapValue\":{\"fields\":{\"followers\":\(NDJSON.int(3)),\"secret\":\(NDJSON.int(7))}}}",
        ]), update: update)
    }

    static let config = """
        project: demo
        inputs: [data.ndjson]
        previous: none
        redact: {users: [email, stats.secret]}
        bundles:
          - id: people
            queries:
              active:
                collection: users
                where: [[active, ==, true]]

        """

    @Test func shippedDocumentsLeaversIncludedCarryOnlyThePublishedFields() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir, config: Self.config, data: NDJSON.file(Self.user("ada", active: true), Self.user("bob", active: true)))
        _ = try build(config: config)
        // bob leaves the query (and changes): he ships again as a leaver, redacted too.
        try dir.write("data.ndjson", NDJSON.file(Self.user("ada", active: true), Self.user("bob", active: false, update: "2024-01-03T00:00:00Z")))
        let report = try build(config: config)
        #expect(report.bundles[0].leavers == 1)
        let bundle = try readBundle(site: dir.file("site"), url: try readManifest(site: dir.file("site")).bundles[0].url)
        #expect(bundle.documents.count == 2)
        for entry in bundle.documents {
            let fields = try #require(entry.document?.fields)
            #expect(fields.fields.map(\.key) == ["active", "name", "stats"])
            #expect(fields["stats"] == .map(MapValue([("followers", .integer(3))])))
        }
        #expect(SiteVerifier(siteDirectory: dir.file("site")).verify().isValid)

        let result = try QueryRunner.run(namedQuery: "active", config: try PipelineConfig.load(file: config))
        #expect(result.documents.map { $0.fields.fields.map(\.key) } == [["active", "name", "stats"]])
    }

    /// A policy added to a published site changes the shipped content under the same
    /// `updateTime`: the documents get a newer one, so returning clients replace what they cached.
    @Test func addingAPolicyReplacesWhatClientsCached() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let open = Self.config.replacingOccurrences(of: "redact: {users: [email, stats.secret]}\n", with: "")
        let config = try SmallSite.write(into: dir, config: open, data: NDJSON.file(Self.user("ada", active: true)))
        let first = try build(config: config)
        try dir.write("pipeline.yml", Self.config)
        let second = try build(config: config)
        let bundle = try readBundle(site: dir.file("site"), url: try readManifest(site: dir.file("site")).bundles[0].url)
        let ada = try #require(bundle.documents.first?.document)
        #expect(ada.updateTime?.rfc3339 == second.siteTime)
        #expect(second.siteTime > first.siteTime)
    }
}
