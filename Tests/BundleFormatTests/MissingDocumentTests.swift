import BundleFormat
import FirestoreModel
import Testing

/// Missing-document markers (`exists: false`, no document): what returning clients need for a
/// document a bundle shipped before and that was deleted.
@Suite struct MissingDocumentTests {
    private func framed(_ json: String) -> String { "\(json.utf8.count)\(json)" }
    private let earlier = try! Timestamp(rfc3339: "2024-04-30T00:00:00Z")

    @Test func aMarkerHasItsOwnReadTimeNoDocumentAndCountsInTotalDocuments() throws {
        var writer = try BundleWriter(id: "one", snapshotTime: WriterFixtures.snapshot, database: WriterFixtures.database)
        try writer.addMissingDocument(try ResourcePath(parsing: "cities/gone"), readTime: earlier)
        let body = framed(#"{"documentMetadata":{"name":"projects/demo/databases/(default)/documents/cities/gone","readTime":"2024-04-30T00:00:00.000000000Z","exists":false,"queries":[]}}"#)
        let metadata = framed(#"{"metadata":{"id":"one","createTime":"2024-05-01T12:00:00.000000000Z","version":1,"totalDocuments":1,"totalBytes":\#(body.utf8.count)}}"#)
        #expect(String(decoding: writer.encode().joined(), as: UTF8.self) == metadata + body)
    }

    @Test func aMarkerMustBeReadAfterTheEpochAndNotAfterTheBundle() throws {
        var writer = try BundleWriter(id: "one", snapshotTime: WriterFixtures.snapshot, database: WriterFixtures.database)
        let path = try ResourcePath(parsing: "cities/gone")
        #expect(throws: BundleWriterError.missingDocumentTimeOutOfOrder(path, readTime: WriterFixtures.snapshot.nextMicrosecond, snapshotTime: WriterFixtures.snapshot)) {
            try writer.addMissingDocument(path, readTime: WriterFixtures.snapshot.nextMicrosecond)
        }
        try writer.addDocument(WriterFixtures.document("cities/LA", []))
        #expect(throws: BundleWriterError.duplicateDocument(try ResourcePath(parsing: "cities/LA"))) {
            try writer.addMissingDocument(try ResourcePath(parsing: "cities/LA"), readTime: earlier)
        }
    }

    @Test func theStrictReaderAcceptsMarkersOnlyWhenAsked() throws {
        var writer = try WriterFixtures.sampleWriter()
        try writer.addMissingDocument(try ResourcePath(parsing: "cities/gone"), readTime: earlier)
        let bytes = writer.encode().joined()
        #expect(throws: BundleReadError.self) { try BundleReader.read(bytes, database: WriterFixtures.database) }
        do {
            _ = try BundleReader.read(bytes, database: WriterFixtures.database)
        } catch {
            #expect(error.problems.map(\.code) == [.missingDocument])
        }
        let contents = try BundleReader.read(bytes, database: WriterFixtures.database, missingDocuments: .accepted)
        let marker = try #require(contents.documents.last)
        #expect(marker.document == nil && marker.metadata.readTime == earlier && !marker.metadata.exists)
    }

    @Test func aMarkerThatIsAResultOrReadAfterTheBundleIsRejected() throws {
        let name = "projects/demo/databases/(default)/documents/cities/gone"
        let query = framed(#"{"namedQuery":{"name":"q","bundledQuery":"# + String(decoding: WriterFixtures.bigCitiesQuery, as: UTF8.self) + #","readTime":"2024-05-01T12:00:00.000000000Z"}}"#)
        for (readTime, queries, fragment) in [
            ("2024-04-30T00:00:00.000000000Z", #"["q"]"#, "is listed as a result of q"),
            ("2024-05-02T00:00:00.000000000Z", "[]", "after the bundle's createTime"),
        ] {
            let body = query + framed(#"{"documentMetadata":{"name":"\#(name)","readTime":"\#(readTime)","exists":false,"queries":\#(queries)}}"#)
            let bundle = framed(#"{"metadata":{"id":"one","createTime":"2024-05-01T12:00:00.000000000Z","version":1,"totalDocuments":1,"totalBytes":\#(body.utf8.count)}}"#) + body
            do {
                _ = try BundleReader.read(Array(bundle.utf8), missingDocuments: .accepted)
                Issue.record("accepted a marker: \(fragment)")
            } catch {
                #expect(error.problems.contains { $0.message.contains(fragment) }, "\(error.problems)")
            }
        }
    }
}
