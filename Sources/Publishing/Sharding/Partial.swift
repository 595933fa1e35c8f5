import ExportReader
import FirestoreModel
import JSONCore
import PipelineLanguage

/// What the map task of one shard read from its slice of the inputs, held in memory: what the
/// merge needs to build the site exactly as one process reading every input builds it. (A map
/// task for another machine streams the same documents to disk instead: ``PartialWriter``.)
struct Partial: Sendable {
    /// The slice's documents, de-duplicated within the slice; the merge de-duplicates across
    /// slices the same way (``DocumentSet``).
    var documents: DocumentSet
    var exportTimes: ExportTimes

    /// Reads slice `shard` of `layout`, telling `progress` how far it is.
    static func read(_ shard: Shard, of layout: InputLayout, config: PipelineConfig, progress: (BuildEvent) -> Void) throws(BuildError) -> Partial {
        var documents = DocumentSet(duplicates: config.duplicates)
        let times = try readSlice(shard, of: layout, config: config, progress: progress) { exported throws(BuildError) in
            try documents.add(exported)
        }
        return Partial(documents: documents, exportTimes: times)
    }

    /// Reads slice `shard` of `layout`, checking each document as it is read (a reference outside
    /// the database, an `updateTime` before `createTime`) and handing it to `body` in reading order.
    static func readSlice(
        _ shard: Shard, of layout: InputLayout, config: PipelineConfig, progress: (BuildEvent) -> Void,
        each body: (ExportedDocument) throws(BuildError) -> Void
    ) throws(BuildError) -> ExportTimes {
        let reader = ExportReader(target: config.database)
        let pieces = layout.pieces(of: shard) { input in input.spec.format ?? (try? reader.detectFormat(of: input.path)) }
        let sizes = pieces.map { piece in piece.byteRange?.count ?? layout.inputs[piece.input].size }
        let totalBytes = sizes.reduce(0, +)
        var times = ExportTimes()
        var bytesBefore = 0
        var failure: BuildError?
        for (index, piece) in pieces.enumerated() {
            let input = layout.inputs[piece.input]
            let size = sizes[index]
            func reading(_ bytesRead: Int) {
                let bytesRead = min(bytesRead, size)
                progress(.readingInput(BuildEvent.InputProgress(
                    path: input.path, index: index, count: pieces.count, bytesRead: bytesRead, bytes: size,
                    totalBytesRead: bytesBefore + bytesRead, totalBytes: totalBytes)))
            }
            reading(0)
            do throws(ExportError) {
                let exportTime = try reader.read(
                    input.path, format: input.spec.format, hints: input.spec.hints, byteRange: piece.byteRange, progress: reading
                ) { exported in
                    guard failure == nil else { return }
                    do throws(BuildError) {
                        try check(exported, config: config)
                        try body(exported)
                    } catch {
                        failure = error
                    }
                }
                if let exportTime {
                    times.taken.append(exportTime)
                } else if input.isExportFolder {
                    times.untimedExport = input.path
                }
            } catch {
                throw .input(error)
            }
            if let failure { throw failure }
            bytesBefore += size
        }
        return times
    }

    /// Problems a client would hit with this document, reported where it was read.
    private static func check(_ exported: ExportedDocument, config: PipelineConfig) throws(BuildError) {
        let document = exported.document
        if let foreign = document.fields.firstReference(outside: config.database) {
            throw .data(
                "document \(document.path) holds a reference to \(foreign), outside \(config.database); iOS clients and Python reject bundles with references into another project or database",
                location: exported.location)
        }
        if let create = document.createTime, let update = document.updateTime, update < create {
            throw .data("document \(document.path) has updateTime \(update) before createTime \(create)", location: exported.location)
        }
    }
}

/// What the managed and emulator exports read say of when they were taken.
struct ExportTimes: Sendable {
    /// When each export that records it was taken.
    var taken: [Timestamp] = []
    /// The last export folder read that records no time, for the message when no snapshot
    /// time can be found.
    var untimedExport: String?

    /// These times, then those of exports read after them.
    mutating func append(_ later: ExportTimes) {
        taken += later.taken
        untimedExport = later.untimedExport ?? untimedExport
    }
}
