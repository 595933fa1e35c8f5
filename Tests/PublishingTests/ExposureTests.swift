import Foundation
import Testing
@testable import PipelineLanguage
@testable import Publishing

@Suite("The guard against sensitive fields")
struct ExposureTests {
    @Test(arguments: [
        ("ada@example.com", SensitiveValue.emailAddress), ("+44 20 7946 0958", .phoneNumber),
        ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abcdEFGH_ijkl-mn", .jsonWebToken), ("sk_live_4eC39HqLyjWDarjtT1zdp7dc", .apiKey),
        ("AKIAIOSFODNN7EXAMPLE", .apiKey), ("GB82WEST12345698765432", .iban),
    ])
    func valuesThatLookSensitive(text: String, kind: SensitiveValue) {
        #expect(SensitiveValue.looking(like: text) == kind)
    }

    @Test(arguments: ["@aiko@mstdn.jp", "news.bundlepress.example", "2024-01-02", "+1 555", "GB82WEST12345698765433", "eyJ.not.a.token", "The sk_live_ key", "ISBN 978-0-13-468599-1"])
    func valuesThatDoNot(text: String) {
        #expect(SensitiveValue.looking(like: text) == nil, "\(text)")
    }

    @Test func namesThatSayWhatTheFieldHolds() {
        #expect(SensitiveValue.named("Email") == .emailAddress)
        #expect(SensitiveValue.named("phone_number") == .phoneNumber)
        #expect(SensitiveValue.named("api-key") == .apiKey)
        #expect(SensitiveValue.named("title") == nil && SensitiveValue.named("emailVerified") == nil)
    }

    static func site(_ policy: String) -> String {
        """
        project: demo
        inputs: [data.ndjson]
        previous: none
        \(policy)
        bundles:
          - id: people
            queries:
              people: {collection: users}

        """
    }

    static let data = NDJSON.file(
        NDJSON.document("users/u1", NDJSON.fields(["name": NDJSON.string("Ada"), "contact": "{\"mapValue\":{\"fields\":{\"mobile\":\(NDJSON.string("x"))}}}", "note": NDJSON.string("ada@example.com")])),
        NDJSON.document("users/u2", NDJSON.fields(["name": NDJSON.string("Bob"), "note": NDJSON.string("bob@example.com")]))
    )

    @Test func findingsNameBundleCollectionFieldAndAnExample() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let report = try build(config: try SmallSite.write(into: dir, config: Self.site(""), data: Self.data))
        #expect(report.exposure.map { "\($0.collection).\($0.field) \($0.looksLike) \($0.example)" } == [
            "users.contact.mobile a phone number users/u1", "users.note an email address users/u1",
        ])
        #expect(report.warnings.count == 2 && report.warnings[1].contains("redact: {users: [note]}"))
    }

    @Test func anExplicitFieldsRuleSilencesAndRedactRemoves() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let allowed = try build(config: try SmallSite.write(into: dir, config: Self.site("fields: {users: [name, note, contact]}"), data: Self.data))
        #expect(allowed.exposure == [])
        let redacted = try build(config: try SmallSite.write(into: dir, config: Self.site("redact: {users: [note]}"), data: Self.data))
        #expect(redacted.exposure.map(\.field) == ["contact.mobile"])
    }

    @Test func failModePublishesNothing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir, config: Self.site("exposure: {mode: fail}"), data: Self.data)
        let error = buildError(config: config)
        guard case .exposure(let findings)? = error else {
            Issue.record("expected an exposure error, found \(String(describing: error))")
            return
        }
        #expect(findings.count == 2)
        #expect(!FileManager.default.fileExists(atPath: dir.file("site/bundles/manifest.json")))
    }
}
