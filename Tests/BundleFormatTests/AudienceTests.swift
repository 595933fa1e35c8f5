import BundleFormat
import FirestoreModel
import Testing

/// OR filters load only in the JS SDK: writer and reader accept them for a web-only audience and
/// reject them, naming Android and iOS, for every other one.
@Suite struct AudienceTests {
    let database = DatabaseID(project: "demo")
    let orQuery = Array(#"{"parent":"projects/demo/databases/(default)/documents","structuredQuery":{"from":[{"collectionId":"c"}],"where":{"compositeFilter":{"op":"OR","filters":[{"fieldFilter":{"field":{"fieldPath":"a"},"op":"EQUAL","value":{"integerValue":1}}},{"fieldFilter":{"field":{"fieldPath":"b"},"op":"EQUAL","value":{"integerValue":2}}}]}}},"limitType":"FIRST"}"#.utf8)

    private func writer(_ audience: BundleAudience) throws -> BundleWriter {
        try BundleWriter(id: "b", snapshotTime: try Timestamp(seconds: 100, nanos: 0), database: database, audience: audience)
    }

    @Test func writerAcceptsOROnlyForWebOnlyBundles() throws {
        var all = try writer(.allClients)
        let error = try #require(throws: BundleWriterError.self) { try all.addNamedQuery(name: "q", bundledQuery: orQuery) }
        #expect(error.description.contains("Android and iOS"))
        var web = try writer(.webOnly)
        try web.addNamedQuery(name: "q", bundledQuery: orQuery)
        let bytes = web.encode().joined()
        #expect(try BundleReader.read(bytes, database: database, audience: .webOnly).namedQueries.count == 1)
        let readError = try #require(throws: BundleReadError.self) { try BundleReader.read(bytes, database: database) }
        #expect(readError.description.contains("Android and iOS"))
    }
}
