import ExportReader
import FirestoreModel
import JSONCore
import PipelineLanguage

/// What the map of one process over all the inputs read, held in memory: what the merge needs
/// to build the site. (The map task of a shard for another machine streams its documents to
/// disk instead: ``PartialWriter``.)
struct Partial {
    /// The documents, with duplicates resolved as `duplicates:` says (``DocumentSet``).
    var documents: DocumentSet
    var exportTimes: ExportTimes

    /// The documents and export times, moved out.
    consuming func parts() -> (documents: DocumentSet, exportTimes: ExportTimes) {
        (documents, exportTimes)
    }

    /// Reads all of `layout` (the slice of ``Shard/whole``), keeping `fields` of each candidate of
    /// `rules` (nil: of every document) in memory and setting the whole of it aside in
    /// `directory`, telling `progress` how far it is.
    static func readAll(
        of layout: InputLayout, config: PipelineConfig, keeping fields: [FieldPath], candidates rules: CandidateRules?,
        in directory: String, progress: (BuildEvent) -> Void
    ) throws(BuildError) -> Partial {
        // The fields the config names are counted as documents are read: the reader decodes
        // those of field rules too (the set keeps only `fields` of them).
        let census = FieldCensus(fields: config.fieldsNamed, database: config.database)
        var documents = try DocumentSet(
            duplicates: config.duplicates, keeping: fields, candidates: rules, watching: config.queriedCollections, in: directory, census: census)
        let decoding = fields + census.fields.filter { !fields.contains($0) }
        let read = try readSlice(.whole, of: layout, config: config, decoding: decoding, progress: progress) { exported, _ throws(BuildError) in
            try documents.add(exported)
        }
        return Partial(documents: documents, exportTimes: read.exportTimes)
    }

    /// Reads slice `shard` of `layout`, checking each document as it is read (a reference outside
    /// the database, an `updateTime` before `createTime`) and handing it to `body` in reading order:
    /// whole, or with only the fields `decoding` says decoded when the reader can give every
    /// field encoded (``ExportReader/ExportReader/fieldsKept``).
    ///
    /// The lines of an input cut into ranges are numbered from the range's start (counting the
    /// lines before it would read the file up to it): the result says, per such piece, the
    /// newlines in its range, which the merge adds up to number them as in the whole file. An
    /// error in such a piece is found again with the file's own line numbers before it is thrown.
    static func readSlice(
        _ shard: Shard, of layout: InputLayout, config: PipelineConfig, decoding fields: [FieldPath]? = nil, progress: (BuildEvent) -> Void,
        each body: (_ document: ExportedDocument, _ piece: Int) throws(BuildError) -> Void
    ) throws(BuildError) -> SliceRead {
        let reader = ExportReader(target: config.database, fieldsKept: fields)
        let pieces = layout.pieces(of: shard, lineFormat: reader.lineFormat(of:))
        let sizes = pieces.map { piece in piece.byteRange?.count ?? layout.inputs[piece.input].size }
        let totalBytes = sizes.reduce(0, +)
        var read = SliceRead(pieces: [], exportTimes: ExportTimes())
        var bytesBefore = 0
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
            let numbering: LineNumbering = (piece.byteRange?.lowerBound ?? 0) > 0 ? .fromRangeStart : .fromFileStart
            var failure: BuildError?
            do throws(ExportError) {
                let exportTime = try reader.read(
                    input.path, format: piece.format, hints: input.spec.hints, byteRange: piece.byteRange, lineNumbering: numbering, progress: reading
                ) { exported in
                    guard failure == nil else { return }
                    do throws(BuildError) {
                        try check(exported, config: config)
                        try body(exported, index)
                    } catch {
                        failure = error
                    }
                }
                if let exportTime {
                    read.exportTimes.taken.append(exportTime)
                } else if input.isExportFolder {
                    read.exportTimes.untimedExport = input.path
                }
            } catch {
                failure = .input(error)
            }
            if let failure {
                guard numbering == .fromRangeStart else { throw failure }
                throw firstFailure(in: piece, of: layout, reader: reader, config: config) ?? failure
            }
            var newlines: Int?
            if let range = piece.byteRange {
                do throws(ExportError) { newlines = try reader.newlines(in: input.path, range: range) } catch { throw .input(error) }
            }
            read.pieces.append(SliceRead.Piece(input: piece.input, byteRange: piece.byteRange, newlines: newlines))
            bytesBefore += size
        }
        return read
    }

    /// The first error reading `piece` meets, with the lines numbered as in the whole file.
    private static func firstFailure(in piece: InputLayout.Piece, of layout: InputLayout, reader: ExportReader, config: PipelineConfig) -> BuildError? {
        let input = layout.inputs[piece.input]
        var failure: BuildError?
        do throws(ExportError) {
            try reader.read(input.path, format: piece.format, hints: input.spec.hints, byteRange: piece.byteRange) { exported in
                guard failure == nil else { return }
                do throws(BuildError) { try check(exported, config: config) } catch { failure = error }
            }
        } catch {
            return failure ?? .input(error)
        }
        return failure
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

/// What reading a slice found besides its documents.
struct SliceRead: Sendable {
    /// One input the slice read, whole or a byte range of it.
    struct Piece: Sendable {
        var input: Int
        var byteRange: Range<Int>?
        /// The newlines in `byteRange`, for the line numbers of the ranges after it.
        var newlines: Int?
    }

    var pieces: [Piece]
    var exportTimes: ExportTimes
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
