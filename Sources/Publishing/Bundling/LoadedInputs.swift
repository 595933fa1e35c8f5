import ExportReader
import FirestoreModel
import Foundation
import JSONCore
import PipelineLanguage
import QueryEngine

/// Every document of the inputs, re-rooted, de-duplicated, with its times resolved against the
/// build's snapshot time, and indexed for queries.
struct LoadedInputs: Sendable {
    var store: DocumentStore
    var snapshotTime: Timestamp
    /// The data files read: an export folder counts as the `output-N` files it holds.
    var fileCount: Int
    var inputBytes: Int

    /// Reads every input of `config`: the map of one shard over all of them, then the merge.
    /// Files are read in config order, each pattern's matches in path order, so "last wins" is
    /// well defined.
    static func load(_ config: PipelineConfig, progress: (BuildEvent) -> Void) throws(BuildError) -> LoadedInputs {
        let layout = try InputLayout.expand(config)
        let partial = try Partial.readAll(of: layout, config: config, progress: progress)
        return try LoadedInputs(
            documents: partial.documents, exportTimes: partial.exportTimes, files: layout.dataFileCount, bytes: layout.totalBytes,
            config: config, progress: progress)
    }

    /// The inputs that hold `documents` (every input's, de-duplicated), read from exports taken
    /// at `exportTimes`: their times resolved against the snapshot time, and indexed. `files`
    /// and `bytes` are the data files and bytes of all inputs.
    init(
        documents: consuming DocumentSet, exportTimes: ExportTimes, files: Int, bytes: Int, config: PipelineConfig,
        progress: (BuildEvent) -> Void
    ) throws(BuildError) {
        progress(.inputsRead(documents: documents.count, files: files))
        snapshotTime = try Self.resolveSnapshotTime(
            config: config, exportTime: exportTimes.taken.min(), untimedExport: exportTimes.untimedExport, documents: documents.documents)
        store = DocumentStore(database: config.database)
        for exported in documents.documents {
            var document = exported.document
            document.updateTime = document.updateTime ?? snapshotTime
            document.createTime = document.createTime ?? document.updateTime
            store.insert(document)
        }
        fileCount = files
        inputBytes = bytes
    }

    /// `config` with its named queries resolved against these inputs (snapshot time, cursors at
    /// documents), each query's collection checked to hold documents.
    func resolve(_ config: PipelineConfig) throws(BuildError) -> PipelineConfig {
        let resolved: PipelineConfig
        do throws(ConfigError) {
            resolved = try config.resolvingQueries(snapshotTime: snapshotTime, store: store)
        } catch {
            throw .config(error)
        }
        try checkCollectionsExist(resolved)
        return resolved
    }

    /// A named query over a collection that no input holds is almost always a typo.
    private func checkCollectionsExist(_ config: PipelineConfig) throws(BuildError) {
        for bundle in config.bundles {
            for named in bundle.queries {
                let query = named.query
                let known = query.allDescendants
                    ? store.hasCollectionGroup(query.collectionID)
                    : store.hasCollection(query.parent.appending(query.collectionID))
                guard known else {
                    let what = query.allDescendants ? "collection group \"\(query.collectionID)\"" : "collection \"\(query.parent.appending(query.collectionID))\""
                    let suggestions = store.collectionIDs.sorted().joined(separator: ", ")
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
        config: PipelineConfig, exportTime: Timestamp?, untimedExport: String?, documents: [ExportedDocument]
    ) throws(BuildError) -> Timestamp {
        let newest = documents.compactMap(\.document.updateTime).max()
        guard let snapshotTime = config.snapshotTime ?? exportTime ?? newest else {
            let export = untimedExport.map { "the export \($0) records no usable start time (older Emulator Suite versions write none) and " } ?? ""
            throw .data(
                "\(export)no input document has an updateTime, so the snapshot time cannot be derived; set snapshot_time: in \(config.file) to when the export was taken",
                location: nil)
        }
        guard snapshotTime.isPositive else {
            throw .data("the snapshot time \(snapshotTime) must be after 1970-01-01T00:00:00Z; clients reject zero times", location: nil)
        }
        if let late = documents.first(where: { ($0.document.updateTime ?? $0.document.createTime).map { $0 > snapshotTime } ?? false }) {
            let (late, location) = (late.document, late.location)
            throw .data(
                "document \(late.path) was updated at \((late.updateTime ?? late.createTime)!), after snapshot_time \(snapshotTime); a bundle's read time must not precede its documents (raise snapshot_time or remove it to use the newest updateTime)",
                location: location)
        }
        return snapshotTime
    }
}
