import FirestoreModel
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

    /// Past one run of documents the scan runs on every core: the findings, and each one's
    /// example (the first document that holds it), are those of one pass in document order.
    @Test func findingsOverManyRunsComeInDocumentOrder() throws {
        let documents = try (0..<10_000).map { index in
            var fields: [(String, Value)] = [("n", .integer(Int64(index)))]
            if index == 9_000 || index == 9_500 { fields.append(("phone", .string("x"))) }
            if index >= 4_100 { fields.append(("contact", .string("user\(index)@example.com"))) }
            if index == 7 { fields.append(("token", .string("t"))) }
            return Document(path: try ResourcePath(parsing: "c/d\(String(format: "%05d", index))"), fields: MapValue(fields))
        }
        let findings = ExposureScan.findings(bundle: "b", documents: documents, policy: FieldPolicy())
        #expect(findings.map(\.field) == ["token", "contact", "phone"])
        #expect(findings.map(\.example) == ["c/d00007", "c/d04100", "c/d09000"])
    }

    /// The scan reads the fields as a bundle carries them: escaped keys and strings, values in
    /// maps and arrays, a sensitive name not looked into, other types passed over.
    @Test func theScanWalksEncodedFields() throws {
        let fields = MapValue([
            ("contact", .string("jos\u{E9}@example.com")), ("cl\u{E9}", .string("+44 20 7946 0958")),
            ("nested", .map(MapValue([("deep", .array([.integer(1), .string("ada@example.com"), .geoPoint(GeoPoint(latitude: 1, longitude: 2))]))]))),
            ("email", .map(MapValue([("x", .string("plain"))]))), ("ref", .reference(ResourceName(database: DatabaseID(project: "p"), path: ResourcePath(segments: ["a}\"", "b"])))),
            ("quote", .string("say \"hi\" to ada@example.com")), ("empty", .map(MapValue())), ("none", .array([])),
            ("time", .timestamp(try Timestamp(seconds: 5, nanos: 0))), ("last", .string("AKIAIOSFODNN7EXAMPLE")),
            // Escaped in the encoding: an address is still one; text without an `@` is not looked into.
            ("quoted", .string("o\"neil@example.com")), ("text", .string("na\u{EF}ve caf\u{E9}\tAKIAIOSFODNN7EXAMPLE")),
        ])
        var names = SensitiveFields.NameJudgements()
        let found = SensitiveFields.candidates(in: fields, names: &names).map { ($0.path, $0.looksLike) }
        #expect(found.map(\.0) == [["cl\u{E9}"], ["contact"], ["email"], ["last"], ["nested", "deep"], ["quoted"]])
        #expect(found.map(\.1) == [.phoneNumber, .emailAddress, .emailAddress, .apiKey, .emailAddress, .emailAddress])
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

    // MARK: - The report of a published site (inspect --exposure)

    @Test func theReportListsEveryPublishedFieldAndTheGuardsFindings() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let configFile = try SmallSite.write(into: dir, config: Self.site("redact: {users: [note]}"), data: Self.data)
        let built = try build(config: configFile)
        let config = try PipelineConfig.load(file: configFile)
        let report = try ExposureReport.read(siteDirectory: dir.file("site"), config: config)
        let users = ExposureReport.CollectionExposure(
            collection: "users", documents: 2, bundles: ["people"],
            fields: [
                .init(path: "contact", types: ["map"], documents: 1), .init(path: "contact.mobile", types: ["string"], documents: 1),
                .init(path: "name", types: ["string"], documents: 2),
            ])
        #expect(report.collections == [users])
        var own = users
        own.bundles = nil
        #expect(report.bundles == [.init(id: "people", collections: [own])])
        #expect(report.findings == built.exposure)
        #expect(report.config == configFile)
    }

    @Test func withoutTheConfigNothingIsSilenced() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let configFile = try SmallSite.write(into: dir, config: Self.site("fields: {users: [name, note, contact]}"), data: Self.data)
        #expect(try build(config: configFile).exposure == [])
        let silenced = try ExposureReport.read(siteDirectory: dir.file("site"), config: try PipelineConfig.load(file: configFile))
        #expect(silenced.findings == [])
        let unsilenced = try ExposureReport.read(siteDirectory: dir.file("site"), config: nil)
        #expect(unsilenced.findings.map(\.field) == ["contact.mobile", "note"])
    }

    static let vector = "{\"mapValue\":{\"fields\":{\"__type__\":{\"stringValue\":\"__vector__\"},\"value\":{\"arrayValue\":{\"values\":[{\"doubleValue\":0.5}]}}}}}"

    @Test func typesCarriersAndBundlesAcrossTheSite() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // u1 is published by both bundles; `tags` is an array (its elements are no paths);
        // `score` is an integer in one document and a double in another; a segment with a dash is
        // quoted; a vector is one value, not the map it is written as.
        let data = NDJSON.file(
            NDJSON.document("users/u1", NDJSON.fields(["score": "{\"integerValue\":\"1\"}", "tags": "{\"arrayValue\":{\"values\":[{\"mapValue\":{\"fields\":{\"x\":{\"nullValue\":null}}}}]}}", "a-b": NDJSON.string("x")])),
            NDJSON.document("users/u2", NDJSON.fields(["score": "{\"doubleValue\":2.5}", "embedding": Self.vector])),
            NDJSON.document("users/u1/posts/p1", NDJSON.fields(["title": NDJSON.string("T")]))
        )
        let config = """
            project: demo
            inputs: [data.ndjson]
            previous: none
            bundles:
              - id: one
                documents: [users/u1]
              - id: all
                queries:
                  everyone: {collection: users}
                  posts: {collection_group: posts}

            """
        let configFile = try SmallSite.write(into: dir, config: config, data: data)
        _ = try build(config: configFile)
        let report = try ExposureReport.read(siteDirectory: dir.file("site"), config: try PipelineConfig.load(file: configFile))
        #expect(report.collections.map(\.collection) == ["posts", "users"])
        let users = try #require(report.collections.last)
        #expect(users.documents == 2 && users.bundles == ["one", "all"])
        #expect(users.fields.map { "\($0.path) \($0.types.joined(separator: "|")) \($0.documents)" } == ["`a-b` string 1", "embedding vector 1", "score integer|double 2", "tags array 1"])
        #expect(report.bundles.map { $0.collections.map { "\($0.collection) \($0.documents)" } } == [["users 1"], ["posts 1", "users 2"]])
    }

    @Test func aFanOutsBundlesFollowTheirTemplatesRules() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = """
            project: demo
            inputs: [data.ndjson]
            previous: none
            bundles:
              - id: "people-{name}"
                for_each: {field: name, collection: users}
                fields: {users: [name, note, contact]}
                queries:
                  "people-{name}": {collection: users, where: [[name, ==, "{name}"]]}

            """
        let configFile = try SmallSite.write(into: dir, config: config, data: Self.data)
        #expect(try build(config: configFile).exposure == [])
        let silenced = try ExposureReport.read(siteDirectory: dir.file("site"), config: try PipelineConfig.load(file: configFile))
        #expect(silenced.bundles.map(\.id) == ["people-Ada", "people-Bob"] && silenced.findings == [])
        let unsilenced = try ExposureReport.read(siteDirectory: dir.file("site"), config: nil)
        #expect(unsilenced.findings.map { "\($0.bundle) \($0.field)" } == ["people-Ada contact.mobile", "people-Ada note", "people-Bob note"])
    }
}
