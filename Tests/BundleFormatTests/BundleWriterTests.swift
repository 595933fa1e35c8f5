import BundleFormat
import FirestoreModel
import Gzip
import JSONCore
import Testing

@Suite struct BundleWriterTests {
    private func framed(_ json: String) -> String { "\(json.utf8.count)\(json)" }

    /// The exact bytes of §10 for a small bundle.
    @Test func writesTheEmitterContractExactly() throws {
        var writer = try BundleWriter(id: "one", snapshotTime: WriterFixtures.snapshot, database: WriterFixtures.database)
        try writer.addNamedQuery(name: "big-cities", bundledQuery: WriterFixtures.bigCitiesQuery)
        try writer.addDocument(WriterFixtures.document("cities/LA", [("name", .string("L.A. é"))]), queries: ["big-cities"])
        let t = "2024-05-01T12:00:00.000000000Z"
        let body = framed(#"{"namedQuery":{"name":"big-cities","bundledQuery":"# + String(decoding: WriterFixtures.bigCitiesQuery, as: UTF8.self) + #","readTime":"\#(t)"}}"#)
            + framed(#"{"documentMetadata":{"name":"projects/demo/databases/(default)/documents/cities/LA","readTime":"\#(t)","exists":true,"queries":["big-cities"]}}"#)
            + framed(#"{"document":{"name":"projects/demo/databases/(default)/documents/cities/LA","fields":{"name":{"stringValue":"L.A. \u00e9"}},"createTime":"2024-01-01T00:00:00.000000000Z","updateTime":"2024-04-01T08:15:30.123456789Z"}}"#)
        let metadata = framed(#"{"metadata":{"id":"one","createTime":"\#(t)","version":1,"totalDocuments":1,"totalBytes":\#(body.utf8.count)}}"#)
        let encoded = writer.encode()
        #expect(String(decoding: encoded.joined(), as: UTF8.self) == metadata + body)
        #expect(encoded.metadata.totalBytes == UInt64(body.utf8.count))
        #expect(encoded.byteCount == metadata.utf8.count + body.utf8.count)
    }

    @Test func outputIsASCIIAndIndependentOfRunSize() throws {
        let writer = try WriterFixtures.sampleWriter()
        let reference = writer.encode().joined()
        #expect(reference.allSatisfy { $0 < 0x80 })
        for perRun in [1, 2, 1000] {
            let encoded = writer.encode(documentsPerRun: perRun)
            #expect(encoded.joined() == reference)
            #expect(encoded.body.count == (perRun == 1 ? 4 : (perRun == 2 ? 3 : 2)))
        }
        #expect(try WriterFixtures.sampleWriter().encode().joined() == reference)
    }

    /// The body counted before encoding it is the body encoded, byte for byte in length, for
    /// elements whose lengths cross a power of ten (their framing grows a digit), missing
    /// documents, names that need escapes, and fields given from outside: so the metadata
    /// element can go first and the body stream after it.
    @Test func countsTheBodyBeforeEncodingIt() throws {
        var writer = try WriterFixtures.sampleWriter()
        for length in Array(0..<1_000) + Array(9_700..<10_000) {
            try writer.addDocument(WriterFixtures.document("cities/pad-\(length)", [("text", .string(String(repeating: "x", count: length)))]))
        }
        try writer.addDocument(WriterFixtures.document("cities/\u{e9}t\u{e9} \"q\"", [("name", .string("\u{1F600}\n"))]))
        try writer.addMissingDocument(try ResourcePath(parsing: "cities/gone"), readTime: WriterFixtures.updated)
        try writer.addDocument(WriterFixtures.document("cities/zz", [("after", .boolean(true))]))
        let own = { @Sendable (_: Int, document: Document) -> Int in
            var fields = JSONWriter()
            document.fields.encodeFields(into: &fields)
            return fields.count
        }
        for perRun in [1, 3, 2048] {
            let counted = writer.bodyByteCount(documentsPerRun: perRun, encodedFieldsCount: own)
            var body: [UInt8] = []
            let (metadata, element) = writer.encodeBody(documentsPerRun: perRun) { body += $0 }
            #expect(counted == body.count && Int(metadata.totalBytes) == counted)
            #expect(writer.metadataElement(totalBytes: counted).element == element)
            #expect(element + body == writer.encode().joined())
        }
        // Fields given by the caller (a narrowed document, say) count as given, asked for by
        // each document's index among those added (the missing one included).
        let given = { @Sendable (index: Int, _: Document) -> [UInt8] in Array(#"{"i":{"integerValue":"\#(index)"}}"#.utf8) }
        let counted = writer.bodyByteCount { index, document in given(index, document).count }
        var body: [UInt8] = []
        let element = writer.encodeBody(documentsPerRun: 7, encodedFields: given) { body += $0 }.element
        #expect(counted == body.count)
        let read = try BundleReader.read(element + body, database: WriterFixtures.database, missingDocuments: .accepted)
        #expect(read.documents.count == writer.documentCount && read.documents.filter { $0.document == nil }.count == 1)
        for (index, bundled) in read.documents.enumerated() {
            if let document = bundled.document { #expect(document.fields["i"] == .integer(Int64(index)), "document \(index)") }
        }
    }

    /// Documents given one array of queries (the results of one query share it) are checked and
    /// sorted once and carry the same names; an equal array of other storage is checked again,
    /// and a different one after it too; arrays that take turns keep their own names.
    @Test func aSharedArrayOfQueriesIsCheckedOnce() throws {
        var writer = try BundleWriter(id: "cities", snapshotTime: WriterFixtures.snapshot, database: WriterFixtures.database)
        try writer.addNamedQuery(name: "big-cities", bundledQuery: WriterFixtures.bigCitiesQuery)
        try writer.addNamedQuery(name: "last-city", bundledQuery: WriterFixtures.lastQuery)
        let shared = ["last-city", "big-cities"]
        for id in ["a", "b", "c"] { try writer.addDocument(WriterFixtures.document("cities/\(id)", []), queries: shared) }
        try writer.addDocument(WriterFixtures.document("cities/d", []), queries: Array(shared.reversed()))
        #expect(throws: BundleWriterError.unknownQueryName(try ResourcePath(parsing: "cities/e"), query: "nope")) {
            try writer.addDocument(WriterFixtures.document("cities/e", []), queries: ["last-city", "nope"])
        }
        #expect(throws: BundleWriterError.duplicateQueryName(try ResourcePath(parsing: "cities/e"), query: "last-city")) {
            try writer.addDocument(WriterFixtures.document("cities/e", []), queries: shared + ["last-city"])
        }
        let other = ["big-cities"]
        for id in ["f", "g", "h", "i"] { try writer.addDocument(WriterFixtures.document("cities/\(id)", []), queries: id == "g" ? other : shared) }
        let contents = try BundleReader.read(writer.encode().joined(), database: WriterFixtures.database)
        #expect(contents.documents.map(\.metadata.queries) == Array(repeating: ["big-cities", "last-city"], count: 5) + [["big-cities"]] + Array(repeating: ["big-cities", "last-city"], count: 2))
    }

    @Test func roundTripsThroughTheStrictReader() throws {
        let encoded = try WriterFixtures.sampleWriter().encode()
        let contents = try BundleReader.read(encoded.joined(), database: WriterFixtures.database)
        #expect(contents.warnings.isEmpty)
        #expect(contents.metadata == encoded.metadata)
        #expect(contents.metadata.totalDocuments == 3)
        #expect(contents.namedQueries.map(\.name) == ["big-cities", "last-city"])
        #expect(contents.namedQueries[0].bundledQuery.bytes == WriterFixtures.bigCitiesQuery)
        #expect(contents.namedQueries.allSatisfy { $0.readTime == WriterFixtures.snapshot })
        #expect(contents.documents.map(\.metadata.queries) == [["big-cities", "last-city"], ["big-cities"], []])
        for (read, written) in zip(contents.documents, [WriterFixtures.sf, WriterFixtures.la, WriterFixtures.bridge]) {
            #expect(read.metadata.exists && read.metadata.readTime == WriterFixtures.snapshot)
            let document = try #require(read.document)
            #expect(document.path == written.path)
            #expect(Value.map(document.fields) == Value.map(written.fields))
            #expect(document.createTime == written.createTime && document.updateTime == written.updateTime)
        }
    }

    @Test func readsBackAsGzip() throws {
        let encoded = try WriterFixtures.sampleWriter().encode()
        let compressor = try GzipCompressor()
        var gzip: [UInt8] = []
        encoded.forEachRun { gzip += compressor.append($0) }
        gzip += compressor.finish()
        let contents = try BundleReader.read(gzip)
        #expect(contents.wasGzipped && contents.documents.count == 3)
    }

    @Test func readerReportsCorruptGzip() throws {
        let bundle = try WriterFixtures.sampleWriter().encode().joined()
        let gzip = try GzipCompressor.compress(bundle)
        #expect(try BundleReader.read(gzip).documents.count == 3)
        do {
            _ = try BundleReader.read(Array(gzip.prefix(gzip.count - 20)))
            Issue.record("accepted truncated gzip")
        } catch {
            #expect(error.codes == [.corruptGzip])
        }
    }

    @Test func rejectsInvalidBundleIDsAndTimes() throws {
        let t = WriterFixtures.snapshot
        let db = WriterFixtures.database
        #expect(throws: BundleWriterError.invalidBundleID("", reason: "it is empty")) { try BundleWriter(id: "", snapshotTime: t, database: db) }
        #expect(throws: BundleWriterError.invalidBundleID("a/b", reason: "it contains '/'")) { try BundleWriter(id: "a/b", snapshotTime: t, database: db) }
        #expect(throws: BundleWriterError.invalidBundleID("a//b", reason: "it contains \"//\" (the JS SDK throws on it)")) { try BundleWriter(id: "a//b", snapshotTime: t, database: db) }
        let epoch = try Timestamp(seconds: 0, nanos: 0)
        #expect(throws: BundleWriterError.snapshotTimeNotPositive(epoch)) { try BundleWriter(id: "x", snapshotTime: epoch, database: db) }
    }

    @Test func rejectsBadDocuments() throws {
        var writer = try BundleWriter(id: "x", snapshotTime: WriterFixtures.snapshot, database: WriterFixtures.database)
        try writer.addNamedQuery(name: "q", bundledQuery: WriterFixtures.lastQuery)
        let la = WriterFixtures.la
        let later = try Timestamp(rfc3339: "2024-06-01T00:00:00Z")
        let epoch = try Timestamp(seconds: 0, nanos: 0)
        #expect(throws: BundleWriterError.documentTimesOutOfOrder(la.path, createTime: WriterFixtures.created, updateTime: later, snapshotTime: WriterFixtures.snapshot)) {
            try writer.addDocument(WriterFixtures.document("cities/LA", [], updated: later))
        }
        #expect(throws: BundleWriterError.documentTimesOutOfOrder(la.path, createTime: epoch, updateTime: WriterFixtures.updated, snapshotTime: WriterFixtures.snapshot)) {
            try writer.addDocument(WriterFixtures.document("cities/LA", [], created: epoch))
        }
        #expect(throws: BundleWriterError.documentTimesOutOfOrder(la.path, createTime: WriterFixtures.updated, updateTime: WriterFixtures.created, snapshotTime: WriterFixtures.snapshot)) {
            try writer.addDocument(WriterFixtures.document("cities/LA", [], created: WriterFixtures.updated, updated: WriterFixtures.created))
        }
        var untimed = la
        untimed.updateTime = nil
        #expect(throws: BundleWriterError.missingDocumentTime(la.path, field: "updateTime")) { try writer.addDocument(untimed) }
        #expect(throws: BundleWriterError.unknownQueryName(la.path, query: "nope")) { try writer.addDocument(la, queries: ["nope"]) }
        #expect(throws: BundleWriterError.duplicateQueryName(la.path, query: "q")) { try writer.addDocument(la, queries: ["q", "q"]) }
        let foreign = ResourceName(database: DatabaseID(project: "other"), path: try ResourcePath(parsing: "a/b"))
        #expect(throws: BundleWriterError.foreignReference(la.path, reference: foreign)) {
            try writer.addDocument(WriterFixtures.document("cities/LA", [("m", .map(MapValue([("r", .array([.reference(foreign)]))])))]))
        }
        try writer.addDocument(la)
        #expect(throws: BundleWriterError.duplicateDocument(la.path)) { try writer.addDocument(la) }
        #expect(writer.documentCount == 1)
    }

    /// Paths in key order (as a site's plan adds them) are checked against the last one; the
    /// first out of order brings every path added into the check.
    @Test(arguments: [
        ["a/1", "a/2", "a/2"], ["a/2", "a/1", "a/2"], ["a/1", "a/3", "a/2", "a/1"], ["a/__id7__", "a/__id007__", "a/__id7__"],
        ["a/__id007__", "a/__id7__", "a/__id007__"],
    ])
    func findsADuplicateInOrOutOfKeyOrder(paths: [String]) throws {
        var writer = try BundleWriter(id: "x", snapshotTime: WriterFixtures.snapshot, database: WriterFixtures.database)
        for path in paths.dropLast() {
            if path.hasSuffix("3") { try writer.addMissingDocument(try ResourcePath(parsing: path), readTime: WriterFixtures.updated) } else {
                try writer.addDocument(WriterFixtures.document(path, []))
            }
        }
        let duplicate = try ResourcePath(parsing: paths.last!)
        #expect(throws: BundleWriterError.duplicateDocument(duplicate)) { try writer.addDocument(WriterFixtures.document(paths.last!, [])) }
        #expect(throws: BundleWriterError.duplicateDocument(duplicate)) { try writer.addMissingDocument(duplicate, readTime: WriterFixtures.updated) }
        #expect(writer.documentCount == paths.count - 1)
    }

    @Test func rejectsQueriesSomeClientRefuses() throws {
        var writer = try BundleWriter(id: "x", snapshotTime: WriterFixtures.snapshot, database: WriterFixtures.database)
        try writer.addNamedQuery(name: "q", bundledQuery: WriterFixtures.lastQuery)
        #expect(throws: BundleWriterError.duplicateNamedQuery("q")) { try writer.addNamedQuery(name: "q", bundledQuery: WriterFixtures.lastQuery) }
        #expect(throws: BundleWriterError.emptyQueryName) { try writer.addNamedQuery(name: "", bundledQuery: WriterFixtures.lastQuery) }
        let refused = [
            #"{"parent":"projects/demo/databases/(default)/documents","structuredQuery":{"from":[{"collectionId":"c"}],"where":{"compositeFilter":{"op":"OR","filters":[{"unaryFilter":{"op":"IS_NULL","field":{"fieldPath":"a"}}}]}}}}"#,
            #"{"parent":"projects/demo/databases/(default)/documents","structuredQuery":{"from":[{"collectionId":"c"}],"offset":3}}"#,
            #"{"parent":"projects/demo/databases/(default)/documents","structuredQuery":{"from":[{"collectionId":"c"}],"limit":{"value":1}}}"#,
            #"{"parent":"projects/demo/databases/(default)/documents","structuredQuery":{"from":[{"collectionId":"c"}]},"limitType":"LAST"}"#,
            #"{"parent":"projects/other/databases/(default)/documents","structuredQuery":{"from":[{"collectionId":"c"}]}}"#,
            #"{"parent":"q","structuredQuery":{"from":[{"collectionId":"c"}]}}"#,
            #"{"parent":"projects/demo/databases/(default)/documents", "structuredQuery":{"from":[{"collectionId":"c"}]}}"#,
        ]
        for json in refused {
            #expect(throws: BundleWriterError.self, "\(json)") { try writer.addNamedQuery(name: "r", bundledQuery: Array(json.utf8)) }
        }
    }
}
