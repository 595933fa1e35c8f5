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
/// The store holds each with only the fields the named queries and `for_each` read; they are
/// set aside whole (``SetAsideDocuments``), which reading hands forward to the stages that
/// publish them. Of the other documents read, what counts is that they were: their number, and
/// their collections.
struct LoadedInputs: Sendable {
    /// The candidates, with only the fields of ``fields``.
    private(set) var store: DocumentStore
    /// The fields the store keeps of each document.
    private(set) var fields: [FieldPath]
    /// Every document of the store, whole.
    let setAside: SetAsideDocuments
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
        // the candidates for queries (`finish` gives the documents set aside only).
        let database = config.database
        let indexing = BackgroundMap(count: 1) { _ in
            SetAsideDocuments(entries: entries, candidates: candidates, archive: archive, database: database)
        }
        let snapshotTime = snapshotTime
        store = DocumentStore(database: config.database, count: entries.count, threads: Processors.online) { index in
            var document = entries[index].document
            document.updateTime = document.updateTime ?? snapshotTime
            document.createTime = document.createTime ?? document.updateTime
            return document
        }
        setAside = indexing.results()[0]
        fileCount = files
        inputBytes = bytes
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
        assert(setAside.count == store.count, "a document the store holds was not set aside")
        var widened = DocumentStore(database: store.database)
        for path in setAside.pathsInArchiveOrder {
            var document: Document
            do throws(PublishError) { document = try setAside.whole(store.document(at: path)!) } catch { throw .publish(error) }
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
