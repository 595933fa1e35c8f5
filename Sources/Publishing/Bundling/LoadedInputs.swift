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

    /// Reads every input of `config`. Files are read in config order, each pattern's matches in
    /// path order, so "last wins" is well defined.
    static func load(_ config: PipelineConfig, progress: (BuildEvent) -> Void) throws(BuildError) -> LoadedInputs {
        var files: [(path: String, input: InputSpec)] = []
        for input in config.inputs {
            let matches: [String]
            do {
                matches = try FileGlob(pattern: input.pattern).expand(relativeTo: config.baseDirectory)
            } catch {
                throw .noInputFiles(pattern: input.pattern, location: input.location)
            }
            guard !matches.isEmpty else { throw .noInputFiles(pattern: input.pattern, location: input.location) }
            files += matches.map { ($0, input) }
        }

        let reader = ExportReader(target: config.database)
        // An export folder counts as the data files it holds (reading it says what is wrong with
        // it); sizes follow symlinks: the export's, not a link's.
        let parts = files.map { (try? reader.files(of: $0.path)) ?? [$0.path] }
        let sizes = parts.map { parts in
            parts.reduce(0) { total, part in
                total + ((try? FileManager.default.attributesOfItem(atPath: (part as NSString).resolvingSymlinksInPath)[.size] as? Int) ?? 0)
            }
        }
        let inputBytes = sizes.reduce(0, +)
        let dataFiles = parts.reduce(0) { $0 + $1.count }
        // Documents in the order their paths first appear (a later duplicate, under last-wins,
        // takes its first one's place), and where each path is in it.
        var documents: [(Document, SourceLocation)] = []
        var positions: [ResourcePath: Int] = [:]
        var bytesBefore = 0
        var exportTimes: [Timestamp] = []
        var untimedExport: String?
        var failure: BuildError?
        for (index, file) in files.enumerated() {
            let size = sizes[index]
            func reading(_ bytesRead: Int) {
                progress(.readingInput(BuildEvent.InputProgress(
                    path: file.path, index: index, count: files.count, bytesRead: bytesRead, bytes: size,
                    totalBytesRead: bytesBefore + bytesRead, totalBytes: inputBytes)))
            }
            reading(0)
            do throws(ExportError) {
                let exportTime = try reader.read(file.path, format: file.input.format, hints: file.input.hints, progress: reading) { exported in
                    guard failure == nil else { return }
                    if let error = check(exported, config: config) {
                        failure = error
                        return
                    }
                    let path = exported.document.path
                    if let position = positions[path] {
                        guard config.duplicates == .lastWins else {
                            failure = .data(
                                "document \(path) appears twice (first at \(documents[position].1)); remove one or set duplicates: last-wins",
                                location: exported.location)
                            return
                        }
                        documents[position] = (exported.document, exported.location)
                    } else {
                        positions[path] = documents.count
                        documents.append((exported.document, exported.location))
                    }
                }
                if let exportTime { exportTimes.append(exportTime) } else if parts[index] != [file.path] { untimedExport = file.path }
            } catch {
                throw .input(error)
            }
            if let failure { throw failure }
            bytesBefore += size
        }
        progress(.inputsRead(documents: documents.count, files: dataFiles))

        let snapshotTime = try resolveSnapshotTime(
            config: config, exportTime: exportTimes.min(), untimedExport: untimedExport, documents: documents)
        var store = DocumentStore(database: config.database)
        for (document, _) in documents {
            var document = document
            document.updateTime = document.updateTime ?? snapshotTime
            document.createTime = document.createTime ?? document.updateTime
            store.insert(document)
        }
        return LoadedInputs(store: store, snapshotTime: snapshotTime, fileCount: dataFiles, inputBytes: inputBytes)
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

    /// Problems a client would hit with this document, reported where it was read.
    private static func check(_ exported: ExportedDocument, config: PipelineConfig) -> BuildError? {
        let document = exported.document
        if let foreign = document.fields.firstReference(outside: config.database) {
            return .data(
                "document \(document.path) holds a reference to \(foreign), outside \(config.database); iOS clients and Python reject bundles with references into another project or database",
                location: exported.location)
        }
        if let create = document.createTime, let update = document.updateTime, update < create {
            return .data("document \(document.path) has updateTime \(update) before createTime \(create)", location: exported.location)
        }
        return nil
    }

    /// The snapshot time T: `snapshot_time:`, else the time a managed or emulator export input
    /// was taken (the earliest of them), else the newest updateTime. Every time must be ≤ T
    /// (readTime = T must not precede what was read) and T must be after the epoch.
    /// `untimedExport` names an export folder whose metadata records no start time.
    private static func resolveSnapshotTime(
        config: PipelineConfig, exportTime: Timestamp?, untimedExport: String?, documents: [(Document, SourceLocation)]
    ) throws(BuildError) -> Timestamp {
        let newest = documents.compactMap { $0.0.updateTime }.max()
        guard let snapshotTime = config.snapshotTime ?? exportTime ?? newest else {
            let export = untimedExport.map { "the export \($0) records no usable start time (older Emulator Suite versions write none) and " } ?? ""
            throw .data(
                "\(export)no input document has an updateTime, so the snapshot time cannot be derived; set snapshot_time: in \(config.file) to when the export was taken",
                location: nil)
        }
        guard snapshotTime.isPositive else {
            throw .data("the snapshot time \(snapshotTime) must be after 1970-01-01T00:00:00Z; clients reject zero times", location: nil)
        }
        if let (late, location) = documents.first(where: { ($0.0.updateTime ?? $0.0.createTime).map { $0 > snapshotTime } ?? false }) {
            throw .data(
                "document \(late.path) was updated at \((late.updateTime ?? late.createTime)!), after snapshot_time \(snapshotTime); a bundle's read time must not precede its documents (raise snapshot_time or remove it to use the newest updateTime)",
                location: location)
        }
        return snapshotTime
    }
}
