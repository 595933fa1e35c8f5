import ExportReader
import FirestoreModel
import Foundation
import JSONCore
import ParallelWork
import PipelineLanguage
import QueryEngine

/// The documents of the inputs that can ship (``CandidateRules``), re-rooted, de-duplicated,
/// with their times resolved against the build's snapshot time, and indexed for queries.
///
/// The store holds each with only the fields the named queries and `for_each` read; its whole
/// fields are in the ``DocumentArchive`` they were set aside in, encoded as a bundle carries
/// them, with what publishing them whole needs to know (``DocumentSet/Archived``). Of the other
/// documents read, what counts is that they were: their number, and their collections.
struct LoadedInputs: Sendable {
    /// The candidates, with only the fields of ``fields``.
    private(set) var store: DocumentStore
    /// The fields the store keeps of each document.
    private(set) var fields: [FieldPath]
    private let archive: DocumentArchive
    /// Where each document of the store is set aside.
    private let slots: [ResourcePath: Slot]
    /// What is set aside of each document of the store, by slot.
    private let archived: [DocumentSet.Archived]
    /// The exposure candidates ``DocumentSet/Archived/exposure`` refers to.
    private let candidates: [SensitiveFields.Candidate]
    /// The documents read, de-duplicated, candidates or not.
    let documentCount: Int
    /// The collections of the documents read, candidates or not, as far as checking the named
    /// queries' collections needs them: their IDs (UTF-8, compared byte for byte as the store
    /// compares them), and the queried ones (``PipelineLanguage/PipelineConfig/queriedCollections``).
    private let collectionsRead: (ids: Set<[UInt8]>, queried: Set<ResourcePath>)
    var snapshotTime: Timestamp
    /// What the documents read hold of the fields the config names (nil for a merge: the
    /// partials hold only the candidates' fields).
    let census: FieldCensus?
    /// The data files read: an export folder counts as the `output-N` files it holds.
    var fileCount: Int
    var inputBytes: Int

    /// Reads every input of `config`: the map of one shard over all of them, then the merge.
    /// Files are read in config order, each pattern's matches in path order, so "last wins" is
    /// well defined. The fields of the candidates of `rules` (nil: of every document) are set
    /// aside in a file in `directory`.
    static func load(
        _ config: PipelineConfig, candidates rules: CandidateRules?, in directory: String, progress: (BuildEvent) -> Void
    ) throws(BuildError) -> LoadedInputs {
        let layout = try InputLayout.expand(config)
        let partial = try Partial.readAll(
            of: layout, config: config, keeping: config.fieldsRead, candidates: rules, in: directory, progress: progress)
        // The set is handed over, not shared: settling its last documents would copy it all.
        let (documents, exportTimes) = (consume partial).parts()
        return try LoadedInputs(
            documents: documents, exportTimes: exportTimes, files: layout.dataFileCount, bytes: layout.totalBytes,
            config: config, progress: progress)
    }

    /// The inputs that hold `documents` (every input's, de-duplicated), read from exports taken
    /// at `exportTimes`: their times resolved against the snapshot time, and indexed. `files`
    /// and `bytes` are the data files and bytes of all inputs.
    init(
        documents: consuming DocumentSet, exportTimes: ExportTimes, files: Int, bytes: Int, config: PipelineConfig,
        progress: (BuildEvent) -> Void
    ) throws(BuildError) {
        let (entries, candidates, archive) = try documents.finish()
        progress(.inputsRead(documents: documents.count, files: files))
        snapshotTime = try Self.resolveSnapshotTime(
            config: config, exportTime: exportTimes.taken.min(), untimedExport: exportTimes.untimedExport, documents: documents)
        (documentCount, collectionsRead, self.fields, census) = (documents.count, (documents.collectionIDs, documents.watchedFound), documents.fields, documents.census)
        // What the set kept of every document goes before the candidates are indexed.
        _ = consume documents
        // Where each candidate is set aside is indexed on another core while this one indexes
        // the candidates for queries.
        let indexing = BackgroundMap(count: 1) { _ in
            var slots: [ResourcePath: Slot] = Dictionary(minimumCapacity: entries.count)
            for (index, entry) in entries.enumerated() { slots[entry.document.path] = Slot(index: Int32(index)) }
            // `finish` gives the documents set aside only.
            return (slots: slots, archived: entries.map { $0.archived! })
        }
        let snapshotTime = snapshotTime
        store = DocumentStore(database: config.database, count: entries.count, threads: Processors.online) { index in
            var document = entries[index].document
            document.updateTime = document.updateTime ?? snapshotTime
            document.createTime = document.createTime ?? document.updateTime
            return document
        }
        self.archive = archive
        (slots, archived) = indexing.results()[0]
        self.candidates = candidates
        fileCount = files
        inputBytes = bytes
    }

    /// Where a document of the store is set aside: found by its path once (``slot(of:)``), and
    /// given instead of the path from then on (a look-up by path hashes and compares every
    /// segment: four of them per document took a build of 100k documents 70 ms).
    struct Slot: Sendable {
        fileprivate var index: Int32
    }

    /// Where `document`, a document of the store that may ship, is set aside.
    func slot(of document: Document) throws(PublishError) -> Slot {
        guard let slot = slots[document.path] else {
            throw PublishError(path: document.path.description, message: "this document ships but was not set aside as one that can (a bug in bundlepress: please report it)")
        }
        return slot
    }

    /// What is set aside of the document at `slot`.
    private func setAside(at slot: Slot) -> DocumentSet.Archived {
        archived[Int(slot.index)]
    }

    /// `document`, a document of the store, whole: with every field it was read with.
    func whole(_ document: Document) throws(PublishError) -> Document {
        try whole(document, at: try slot(of: document))
    }

    private func whole(_ document: Document, at slot: Slot) throws(PublishError) -> Document {
        var whole = document
        whole.fields = try archive.fields(at: setAside(at: slot).position, database: store.database)
        return whole
    }

    /// The fields of `document`, a document of the store set aside at `slot`, as `policy`
    /// publishes them, encoded as a bundle carries them: copied from the archive when the policy
    /// publishes it whole.
    func encodedFields(of document: Document, at slot: Slot, as policy: FieldPolicy) throws(PublishError) -> [UInt8] {
        guard policy.rule(forDocument: document.path) != nil else { return try archive.encodedFields(at: setAside(at: slot).position) }
        var writer = JSONWriter()
        policy.apply(to: try whole(document, at: slot)).fields.encodeFields(into: &writer)
        return writer.bytes
    }

    /// The byte count of ``encodedFields(of:at:as:)``, known without reading the archive when
    /// the policy publishes the document whole (else its narrowed fields are encoded to count them).
    func encodedFieldsCount(of document: Document, at slot: Slot, as policy: FieldPolicy) throws(PublishError) -> Int {
        guard policy.rule(forDocument: document.path) != nil else { return setAside(at: slot).position.length }
        return try encodedFields(of: document, at: slot, as: policy).count
    }

    /// The ``DocumentFingerprint`` of `document`, a document of the store set aside at `slot`,
    /// as `policy` publishes it: found as it was set aside when published whole, else computed here.
    func fingerprint(of document: Document, at slot: Slot, as policy: FieldPolicy) throws(PublishError) -> DocumentFingerprint {
        if policy.rule(forDocument: document.path) == nil, let known = setAside(at: slot).fingerprint { return known }
        return DocumentFingerprint.of(createTime: document.createTime, encodedFields: try encodedFields(of: document, at: slot, as: policy))
    }

    /// The fields of `document`, a document of the store set aside at `slot`, that look
    /// sensitive as `policy` publishes it (`names` remembers the judgements of field names).
    func exposureCandidates(
        of document: Document, at slot: Slot, as policy: FieldPolicy, names: inout SensitiveFields.NameJudgements
    ) throws(PublishError) -> [SensitiveFields.Candidate] {
        guard policy.rule(forDocument: document.path) == nil else {
            return SensitiveFields.candidates(in: policy.apply(to: try whole(document, at: slot)).fields, names: &names)
        }
        return setAside(at: slot).exposure.map { candidates[Int($0)] }
    }

    /// `config` with its named queries resolved against these inputs (snapshot time, cursors at
    /// documents), each query's collection checked to hold documents.
    ///
    /// A query of a `for_each` whose field names hold the placeholder reads fields the store
    /// could not know of before: once the values are known (cursors at a document left as
    /// stand-ins, their documents lacking those fields still), the store takes the fields in
    /// from the archive.
    mutating func resolve(_ config: PipelineConfig) throws(BuildError) -> PipelineConfig {
        // Only a for_each over values in the data makes queries the config's load did not see.
        if config.fanOuts.contains(where: \.dependsOnData) {
            try keepAlso(try resolving(config, readingCursorDocuments: false).fieldsRead)
        }
        let resolved = try expandingExtension(try resolving(config, readingCursorDocuments: true))
        try checkCollectionsExist(resolved)
        return resolved
    }

    private func resolving(_ config: PipelineConfig, readingCursorDocuments: Bool) throws(BuildError) -> PipelineConfig {
        do throws(ConfigError) {
            return try config.resolvingQueries(snapshotTime: snapshotTime, store: store, readingCursorDocuments: readingCursorDocuments)
        } catch {
            throw .config(error)
        }
    }

    /// Rebuilds the store with `fields` of every candidate, read from the archive. A field name
    /// with a placeholder takes a `for_each` over values in the data, whose queries' whole scopes
    /// are candidates (``CandidateRules``): every document such a query can return is there.
    /// Widens the store with those of `needed` it does not hold yet (``keep(_:)``).
    mutating func keepAlso(_ needed: [FieldPath]) throws(BuildError) {
        let missing = needed.filter { field in !fields.contains { $0.isPrefix(of: field) } }
        if !missing.isEmpty { try keep(fields + missing) }
    }

    private mutating func keep(_ fields: [FieldPath]) throws(BuildError) {
        assert(slots.count == store.count, "a document the store holds was not set aside")
        var widened = DocumentStore(database: store.database)
        let offsets = slots.mapValues { setAside(at: $0).position.offset }
        for path in slots.keys.sorted(by: { offsets[$0]! < offsets[$1]! }) {
            var document: Document
            do throws(PublishError) { document = try whole(store.document(at: path)!) } catch { throw .publish(error) }
            document.fields = document.fields.keepingOnly(fields)
            widened.insert(document)
        }
        store = widened
        self.fields = fields
    }

    /// A named query over a collection that no input holds is almost always a typo.
    private func checkCollectionsExist(_ config: PipelineConfig) throws(BuildError) {
        for bundle in config.bundles {
            for named in bundle.queries {
                let query = named.query
                // A for_each's queries over values in the data are not among those watched while
                // reading: the documents in their scopes are candidates, in the store.
                let known = query.allDescendants
                    ? collectionsRead.ids.contains(Array(query.collectionID.utf8))
                    : store.hasCollection(query.collectionPath) || collectionsRead.queried.contains(query.collectionPath)
                guard known else {
                    let what = query.allDescendants ? "collection group \"\(query.collectionID)\"" : "collection \"\(query.parent.appending(query.collectionID))\""
                    let suggestions = collectionsRead.ids.map { String(decoding: $0, as: UTF8.self) }.sorted().joined(separator: ", ")
                    throw .config(ConfigError(
                        "named query \"\(named.name)\" reads \(what), which has no documents in the inputs (collections present: \(suggestions))",
                        at: named.location))
                }
            }
        }
    }

    /// The snapshot time T: `snapshot_time:`, else the time a managed or emulator export input
    /// was taken (the earliest of them), else the newest updateTime. Every time must be ≤ T
    /// (readTime = T must not precede what was read) and T must be after the epoch.
    /// `untimedExport` names an export folder whose metadata records no start time.
    private static func resolveSnapshotTime(
        config: PipelineConfig, exportTime: Timestamp?, untimedExport: String?, documents: DocumentSet
    ) throws(BuildError) -> Timestamp {
        guard let snapshotTime = config.snapshotTime ?? exportTime ?? documents.newestUpdateTime else {
            let export = untimedExport.map { "the export \($0) records no usable start time (older Emulator Suite versions write none) and " } ?? ""
            throw .data(
                "\(export)no input document has an updateTime, so the snapshot time cannot be derived; set snapshot_time: in \(config.file) to when the export was taken",
                location: nil)
        }
        guard snapshotTime.isPositive else {
            throw .data("the snapshot time \(snapshotTime) must be after 1970-01-01T00:00:00Z; clients reject zero times", location: nil)
        }
        if let number = documents.first(where: { create, update in (update ?? create).map { $0 > snapshotTime } ?? false }) {
            let late = documents[number]
            throw .data(
                "document \(late.path) was updated at \((late.updateTime ?? late.createTime)!), after snapshot_time \(snapshotTime); a bundle's read time must not precede its documents (raise snapshot_time or remove it to use the newest updateTime)",
                location: late.location)
        }
        return snapshotTime
    }
}
