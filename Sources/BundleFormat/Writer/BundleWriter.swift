import FirestoreModel
import JSONCore
import ParallelWork

/// Builds a data bundle exactly as bundle-format.md §10 prescribes, from a snapshot at time T.
///
/// Every time the bundle carries is T: `metadata.createTime`, each `namedQuery.readTime` and
/// each `documentMetadata.readTime`, except that a missing document (a tombstone, which tells a
/// returning client's cache that a document it holds was deleted) carries its own read time,
/// the version clients give it (§7). Elements come out as metadata, then every named query in
/// the order added, then per document in the order added its `documentMetadata` and, for an
/// existing one, its `document`.
/// Inputs are validated as they are added, so encoding cannot fail, and the same inputs always
/// give byte-identical output.
///
/// ```swift
/// var writer = try BundleWriter(id: "cities", snapshotTime: t, database: db)
/// try writer.addNamedQuery(name: "big", bundledQuery: queryJSON)
/// try writer.addDocument(sf, queries: ["big"])
/// let bytes = writer.encode().joined()                  // small bundles: all in memory
/// // large bundles, in file order in one pass: the body counted first, then streamed
/// let body = writer.bodyByteCount { index, document in fieldsByteCount(index, document) }
/// try file.write(writer.metadataElement(totalBytes: body).element)
/// _ = try writer.encodeBody(encodedFields: { index, document in fields(index, document) }) { try file.write($0) }
/// ```
public struct BundleWriter: Sendable {
    /// The bundle id written into the metadata.
    public let id: String
    /// The snapshot time T.
    public let snapshotTime: Timestamp
    /// The database every name in the bundle belongs to.
    public let database: DatabaseID
    /// The readers the bundle must load in.
    public let audience: BundleAudience

    private struct Query: Sendable {
        var name: String
        var bundledQuery: [UInt8]
    }

    private enum Entry: Sendable {
        case existing(Document, queries: [String])
        case missing(ResourcePath, readTime: Timestamp)

        var path: ResourcePath {
            switch self {
            case .existing(let document, _): document.path
            case .missing(let path, _): path
            }
        }
    }

    private var queries: [Query] = []
    private var queryNames: Set<[UInt8]> = []
    private var entries: [Entry] = []
    /// The last path added: while paths come in strictly increasing key order (as a site's plan
    /// adds them), it is all a duplicate check needs.
    private var lastPath: ResourcePath?
    /// Every path added, from the first that came out of order on.
    private var paths: Set<ResourcePath>?
    /// How every document's name starts as a JSON string literal: the quote and the database's
    /// documents root, what `JSONWriter.string(_:)` writes of a `ResourceName` before its path,
    /// found once rather than for each document.
    private let namePrefix: [UInt8]
    /// The arrays of queries of the documents added last, as given and as checked and sorted:
    /// the results of one query share one array of its name, checked and sorted once (and held
    /// once). A few are kept, as a bundle's documents in key order take turns between queries
    /// (a story, its comments, the next story).
    private var recentQueries: [(given: [String], sorted: [String])] = []
    private static let recentQueriesKept = 4

    /// Starts a bundle.
    /// - Parameters:
    ///   - id: non-empty, without `/` (clients build the path `__bundle__/docs/<id>` from it).
    ///   - snapshotTime: T, after the epoch.
    ///   - database: the project and database the clients loading the bundle use.
    ///   - audience: the readers the bundle must load in (OR filters only for web-only sites).
    public init(id: String, snapshotTime: Timestamp, database: DatabaseID, audience: BundleAudience = .allClients) throws(BundleWriterError) {
        if let reason = BundleID.problem(with: id) {
            throw .invalidBundleID(id, reason: reason)
        }
        guard snapshotTime.isPositive else { throw .snapshotTimeNotPositive(snapshotTime) }
        self.id = id
        self.snapshotTime = snapshotTime
        self.database = database
        self.audience = audience
        var prefix = JSONWriter(reservingCapacity: 64)
        prefix.byte(UInt8(ascii: "\""))
        prefix.escaped(database.documentsRoot)
        namePrefix = prefix.bytes
    }

    /// The number of documents added so far.
    public var documentCount: Int { entries.count }

    /// Adds a named query.
    /// - Parameters:
    ///   - name: unique within the bundle.
    ///   - bundledQuery: the compact, ASCII-only JSON of `{"parent","structuredQuery","limitType"}`
    ///     (QueryEngine produces it). It is checked against what every client accepts (§5) and
    ///     copied into the bundle unchanged.
    public mutating func addNamedQuery(name: String, bundledQuery: [UInt8]) throws(BundleWriterError) {
        guard !name.isEmpty else { throw .emptyQueryName }
        guard !queryNames.contains(Array(name.utf8)) else { throw .duplicateNamedQuery(name) }
        if let reason = BundledQueryCheck.problem(withEncoded: bundledQuery, database: database, audience: audience) {
            throw .invalidBundledQuery(name: name, reason: reason)
        }
        queryNames.insert(Array(name.utf8))
        queries.append(Query(name: name, bundledQuery: bundledQuery))
    }

    /// Adds an existing document.
    /// - Parameters:
    ///   - document: its times must be set and satisfy `0 < createTime ≤ updateTime ≤ T`.
    ///   - queries: names of named queries (already added) whose results contain the document;
    ///     written sorted by UTF-8 bytes.
    public mutating func addDocument(_ document: consuming Document, queries: [String] = []) throws(BundleWriterError) {
        let path = document.path
        guard let createTime = document.createTime else { throw .missingDocumentTime(path, field: "createTime") }
        guard let updateTime = document.updateTime else { throw .missingDocumentTime(path, field: "updateTime") }
        guard createTime.isPositive, createTime <= updateTime, updateTime <= snapshotTime else {
            throw .documentTimesOutOfOrder(path, createTime: createTime, updateTime: updateTime, snapshotTime: snapshotTime)
        }
        let sorted: [String]
        if let recent = recentQueries.first(where: { Self.sameArray($0.given, queries) }) {
            sorted = recent.sorted
        } else {
            sorted = queries.sorted { UTF8Order.compare($0, $1) == .less }
            for (index, query) in sorted.enumerated() {
                guard queryNames.contains(Array(query.utf8)) else { throw .unknownQueryName(path, query: query) }
                if index > 0, UTF8Order.equal(sorted[index - 1], query) { throw .duplicateQueryName(path, query: query) }
            }
            if recentQueries.count == Self.recentQueriesKept { recentQueries.removeFirst() }
            recentQueries.append((queries, sorted))
        }
        if let foreign = document.fields.firstReference(outside: database) {
            throw .foreignReference(path, reference: foreign)
        }
        try reserveEntry(for: path)
        entries.append(.existing(document, queries: sorted))
    }

    /// Adds a missing document: a `documentMetadata` with `exists: false` and no document, which
    /// makes a client that caches an older version of `path` hold it as deleted (§7: the cached
    /// version is replaced when `readTime` is newer than it). It counts in `totalDocuments`.
    /// - Parameter readTime: when the document was known missing, `0 < readTime ≤ T`; it must be
    ///   newer than every version of the document a client may hold.
    public mutating func addMissingDocument(_ path: ResourcePath, readTime: Timestamp) throws(BundleWriterError) {
        guard readTime.isPositive, readTime <= snapshotTime else {
            throw .missingDocumentTimeOutOfOrder(path, readTime: readTime, snapshotTime: snapshotTime)
        }
        try reserveEntry(for: path)
        entries.append(.missing(path, readTime: readTime))
    }

    /// True when `a` and `b` are one array (the same storage), not only equal ones: equal
    /// `String`s may differ in bytes, which a bundle keeps.
    private static func sameArray(_ a: [String], _ b: [String]) -> Bool {
        a.count == b.count && a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }

    private mutating func reserveEntry(for path: ResourcePath) throws(BundleWriterError) {
        guard entries.count < Int(UInt32.max) else { throw .tooManyDocuments(entries.count + 1) }
        if paths == nil, let lastPath, ResourcePath.compare(lastPath, path) != .less {
            paths = Set(entries.map(\.path))
        }
        if paths != nil {
            guard paths!.insert(path).inserted else { throw .duplicateDocument(path) }
        }
        lastPath = path
    }

    /// Encodes the bundle in memory.
    ///
    /// Document elements are encoded in runs of `documentsPerRun` documents on all cores; the runs
    /// are kept in order, so the output does not depend on the number of threads.
    public func encode(documentsPerRun: Int = 2048) -> EncodedBundle {
        var body: [[UInt8]] = []
        let (metadata, metadataElement) = encodeBody(documentsPerRun: documentsPerRun) { (run: [UInt8]) in body.append(run) }
        return EncodedBundle(metadata: metadata, metadataElement: metadataElement, body: body)
    }

    /// Encodes the bundle as a stream, for bundles too large to hold in memory.
    ///
    /// `consume` receives every element after the metadata, in file order, as runs of
    /// `documentsPerRun` documents (the named queries come first, as one run); the runs of a
    /// round are encoded in parallel, one per core, and memory stays at one round. The metadata
    /// element, which must come first in the file but counts the bytes of everything after it,
    /// is returned at the end (or, counted first by ``bodyByteCount(documentsPerRun:encodedFieldsCount:)``,
    /// written before the body with ``metadataElement(totalBytes:)``). `progress` hears the
    /// number of documents encoded after each round.
    ///
    /// `encodedFields` gives, on the encoding threads, each added document's `fields` object
    /// encoded as ``FirestoreModel/MapValue/encodeFields(into:)`` writes it (without it, the
    /// writer encodes the document's own), given the document and its index among those added
    /// (missing ones included), where the caller may keep what it knows of it. A caller that
    /// added documents with only some of their fields, to hold many in little memory, reads the
    /// encoded whole there; what it returns must hold no reference outside the database, as an
    /// added document must not.
    ///
    /// - Returns: the metadata and its complete framed element, `<len>{"metadata":{…}}`.
    public func encodeBody<E: Error>(
        documentsPerRun: Int = 2048,
        encodedFields: (@Sendable (_ index: Int, Document) throws(E) -> [UInt8])? = nil,
        progress: (_ documentsEncoded: Int) -> Void = { _ in },
        _ consume: ([UInt8]) throws(E) -> Void
    ) throws(E) -> (metadata: BundleMetadata, element: [UInt8]) {
        precondition(documentsPerRun > 0, "documentsPerRun must be positive")
        let readTime = snapshotTime.rfc3339
        let queryRun = encodedQueries(readTime: readTime)
        var totalBytes = queryRun.count
        if !queryRun.isEmpty { try consume(queryRun) }
        let threads = Processors.online
        let runCount = (entries.count + documentsPerRun - 1) / documentsPerRun
        // A run's buffer is sized by what the documents encoded so far took (an eighth more), so
        // that it is not grown and copied on the way, and used again for the run in its place in
        // the next round: a new one each time had the kernel map and zero fresh pages for every
        // byte of the body (a sixth of the encoding threads' time).
        var bytesPerDocument = 1024
        let buffers = (0..<threads).map { _ in HandedBuffer() }
        for round in stride(from: 0, to: runCount, by: threads) {
            let runs = parallelMap(count: min(threads, runCount - round), threads: threads) { [bytesPerDocument] offset in
                let slice = run(round + offset, of: documentsPerRun)
                return Result { () throws(E) in
                    var writer = JSONWriter(reusing: buffers[offset].take(), reservingCapacity: slice.count * bytesPerDocument)
                    try encodeDocuments(slice, readTime: readTime, into: &writer, encodedFields: encodedFields)
                    return writer.bytes
                }
            }
            for (offset, run) in runs.enumerated() {
                let run = try run.get()
                totalBytes += run.count
                try consume(run)
                buffers[offset].bytes = run
            }
            let encoded = min(entries.count, (round + threads) * documentsPerRun)
            bytesPerDocument = max(64, (totalBytes - queryRun.count) / encoded * 9 / 8)
            progress(encoded)
        }
        return metadataElement(totalBytes: totalBytes)
    }

    /// The bytes of every element after the metadata, the metadata's `totalBytes`, counted
    /// without encoding any document's fields: `encodedFieldsCount` gives, for each added
    /// document (and its index among those added), the byte count of what
    /// ``encodeBody(documentsPerRun:encodedFields:progress:_:)``'s `encodedFields` gives for it
    /// (or, when that is nil, of the document's own fields encoded).
    ///
    /// With the count, the metadata element goes first (``metadataElement(totalBytes:)``) and the
    /// body after it as it is encoded: a large bundle streams out in file order, in one pass.
    /// Each element's JSON but the fields is written to count it, on all cores.
    public func bodyByteCount<E: Error>(
        documentsPerRun: Int = 2048, encodedFieldsCount: @Sendable (_ index: Int, Document) throws(E) -> Int
    ) throws(E) -> Int {
        precondition(documentsPerRun > 0, "documentsPerRun must be positive")
        let readTime = snapshotTime.rfc3339
        let runCount = (entries.count + documentsPerRun - 1) / documentsPerRun
        let counts = parallelMap(count: runCount, threads: Processors.online) { index in
            Result { () throws(E) in try byteCount(of: run(index, of: documentsPerRun), readTime: readTime, encodedFieldsCount: encodedFieldsCount) }
        }
        var total = encodedQueries(readTime: readTime).count
        for count in counts { total += try count.get() }
        return total
    }

    /// The metadata of the bundle whose body takes `totalBytes`, and its complete framed
    /// element, `<len>{"metadata":{…}}`: what comes first in the file.
    public func metadataElement(totalBytes: Int) -> (metadata: BundleMetadata, element: [UInt8]) {
        let metadata = BundleMetadata(
            id: id, createTime: snapshotTime, version: 1,
            totalDocuments: UInt32(entries.count), totalBytes: UInt64(totalBytes)
        )
        var element = JSONWriter(reservingCapacity: 200)
        var scratch = JSONWriter()
        ElementEncoder.appendFramed(to: &element, scratch: &scratch) { ElementEncoder.metadata(metadata, into: &$0) }
        return (metadata, element.bytes)
    }

    /// The named queries' elements, framed, in the order added.
    private func encodedQueries(readTime: String) -> [UInt8] {
        var run = JSONWriter()
        var scratch = JSONWriter()
        for query in queries {
            ElementEncoder.appendFramed(to: &run, scratch: &scratch) {
                ElementEncoder.namedQuery(name: query.name, bundledQuery: query.bundledQuery, readTime: readTime, into: &$0)
            }
        }
        return run.bytes
    }

    /// The entries of run `index`, runs being `documentsPerRun` entries long.
    private func run(_ index: Int, of documentsPerRun: Int) -> ArraySlice<Entry> {
        let first = index * documentsPerRun
        return entries[first..<min(entries.count, first + documentsPerRun)]
    }

    /// The bytes `slice`'s elements take, framed, with `encodedFieldsCount` bytes of fields for
    /// each existing document: its elements are written with empty fields and counted.
    private func byteCount<E: Error>(
        of slice: ArraySlice<Entry>, readTime: String, encodedFieldsCount: (Int, Document) throws(E) -> Int
    ) throws(E) -> Int {
        var scratch = JSONWriter(reservingCapacity: 4096)
        var names = JSONWriter(reservingCapacity: 256)
        var total = 0
        // Each entry is read in place, `slice[index]` (a copy of it retains what its document
        // holds and the array of its queries, which a query's results share across threads).
        for index in slice.indices {
            var fieldsCount = 0
            if case .existing(let document, _) = slice[index] { fieldsCount = try encodedFieldsCount(index, document) }
            forEachElement(of: slice[index], readTime: readTime, fields: [], names: &names) { isDocument, write in
                scratch.removeAll()
                write(&scratch)
                total += ElementEncoder.framedCount(scratch.count + (isDocument ? fieldsCount : 0))
            }
        }
        return total
    }

    private func encodeDocuments<E: Error>(
        _ slice: ArraySlice<Entry>, readTime: String, into run: inout JSONWriter, encodedFields: ((Int, Document) throws(E) -> [UInt8])?
    ) throws(E) {
        var scratch = JSONWriter(reservingCapacity: 4096)
        var names = JSONWriter(reservingCapacity: 256)
        for index in slice.indices {
            var fields: [UInt8]?
            if let encodedFields, case .existing(let document, _) = slice[index] { fields = try encodedFields(index, document) }
            forEachElement(of: slice[index], readTime: readTime, fields: fields, names: &names) { _, write in
                ElementEncoder.appendFramed(to: &run, scratch: &scratch, write)
            }
        }
    }

    /// Gives `element` the elements of `entry` in file order, each as what writes its JSON: the
    /// `documentMetadata`, then for an existing document (`isDocument`) the `document`, with
    /// `fields` copied as its encoded fields (nil: its own fields encoded). The document's name
    /// is written once, as a JSON string literal, into `names` (emptied first), for both.
    private func forEachElement(
        of entry: Entry, readTime: String, fields: [UInt8]?, names: inout JSONWriter,
        _ element: (_ isDocument: Bool, _ write: (inout JSONWriter) -> Void) -> Void
    ) {
        names.removeAll()
        names.raw(bytes: namePrefix)
        names.byte(UInt8(ascii: "/"))
        names.escaped(entry.path)
        names.byte(UInt8(ascii: "\""))
        let quotedName = names.bytes
        switch entry {
        case .existing(let document, let queries):
            element(false) { ElementEncoder.documentMetadata(quotedName: quotedName, readTime: readTime, exists: true, queries: queries, into: &$0) }
            if let fields {
                element(true) { ElementEncoder.document(document, quotedName: quotedName, encodedFields: fields, into: &$0) }
            } else {
                element(true) { ElementEncoder.document(document, quotedName: quotedName, into: &$0) }
            }
        case .missing(_, let missingReadTime):
            element(false) {
                ElementEncoder.documentMetadata(quotedName: quotedName, readTime: missingReadTime.rfc3339, exists: false, queries: [], into: &$0)
            }
        }
    }
}
