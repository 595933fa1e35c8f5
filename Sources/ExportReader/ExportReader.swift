import FirestoreModel
import JSONCore

/// Reads Firestore export files into documents of the target database.
///
/// Document names are re-rooted to ``target`` whatever project and database the export names
/// (relative names are taken as relative to it), and so are references into the same database
/// as their document; references into other databases are kept for a later stage to judge.
///
/// NDJSON is streamed in chunks of ``chunkSize`` bytes, so memory stays at a chunk plus the
/// longest line (a BigQuery changelog also keeps the newest row of each document until the
/// end of the file). A single-JSON-value file is read and parsed whole. A managed or emulator
/// export is streamed one 32 KiB block and one record at a time, file after file.
///
/// The formats of the Node exporters lose types (``ExportFormat/carriesTypes`` is false):
/// their values are read by the rules in `docs/queries-and-exports.md` §1.g, and
/// ``TypeHints`` give the types their JSON cannot tell.
public struct ExportReader: Sendable {
    /// 4 MiB: large enough that reads cost nothing next to parsing.
    public static let defaultChunkSize = 4 << 20

    /// The database every document and same-database reference is moved into.
    public var target: DatabaseID
    /// How many bytes NDJSON reading asks the file for at a time (tests use tiny sizes).
    public var chunkSize: Int

    /// When set, the documents of REST NDJSON lines in the common shape come with only these
    /// fields decoded and all of them encoded (``ExportedDocument/encodedFields``): a build
    /// needs the rest only as a bundle carries them.
    public var fieldsKept: [FieldPath]?

    public init(target: DatabaseID, chunkSize: Int = ExportReader.defaultChunkSize, fieldsKept: [FieldPath]? = nil) {
        precondition(chunkSize > 0, "the chunk size must be positive")
        self.target = target
        self.chunkSize = chunkSize
        self.fieldsKept = fieldsKept
    }

    /// The format of the file at `path`, or an error naming the unsupported or unknown format.
    public func detectFormat(of path: String) throws(ExportError) -> ExportFormat {
        try FormatDetector(chunkSize: chunkSize).detect(path).format
    }

    /// The format of the file at `path` when it has one record per line, told from its first
    /// two lines; nil for any other file (which this never parses whole) or one it cannot read.
    public func lineFormat(of path: String) -> ExportFormat? {
        try? FormatDetector(chunkSize: chunkSize).detectLineFormat(path)
    }

    /// The number of newlines in `range` of the file at `path`: what the lines of the ranges
    /// before a range read with ``LineNumbering/fromRangeStart`` add to its line numbers.
    public func newlines(in path: String, range: Range<Int>) throws(ExportError) -> Int {
        let scratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: chunkSize)
        defer { scratch.deallocate() }
        return try InputFile(path: path).countNewlines(in: range, scratch: scratch)
    }

    /// The files `path` stands for: the data files of the managed or emulator export it names
    /// (its folder or a metadata file), else the file itself.
    public func files(of path: String) throws(ExportError) -> [String] {
        ExportFolder.recognizes(path) ? try ExportFolder(locating: path).dataFiles : [path]
    }

    /// Opens the file at `path` as a stream of documents. For a managed or emulator export,
    /// `path` names its folder or one of its metadata files.
    ///
    /// - Parameters:
    ///   - format: the format from `pipeline.yml`; nil detects it from the content.
    ///   - hints: the types of fields the format cannot tell; an error for the typed REST formats.
    ///   - byteRange: read only the records whose lines start in this range of the file; the
    ///     format must be one that ``ExportFormat/readsInRanges``.
    ///   - lineNumbering: how the lines of `byteRange` are numbered in locations.
    public func open(
        _ path: String, format: ExportFormat? = nil, hints: TypeHints = TypeHints(), byteRange: Range<Int>? = nil,
        lineNumbering: LineNumbering = .fromFileStart
    ) throws(ExportError) -> any ExportDocumentSource {
        var parsed: ParsedFile?
        let chosen: ExportFormat
        if let format {
            chosen = format
        } else {
            let detection = try FormatDetector(chunkSize: chunkSize).detect(path)
            chosen = detection.format
            if case .singleValue(_, let file) = detection { parsed = file }
        }
        if !hints.isEmpty, chosen.carriesTypes {
            throw .hintsNotApplicable(chosen, file: path)
        }
        precondition(byteRange == nil || chosen.readsInRanges, "\(chosen) cannot be read in byte ranges")
        func parsedFile() throws(ExportError) -> ParsedFile {
            if let parsed { return parsed }
            return try ParsedFile.read(try InputFile(path: path))
        }
        switch chosen {
        case .rest:
            let file = try parsedFile()
            return SingleValueDocumentSource(root: file.root, sourceMap: file.sourceMap, target: target)
        case .restNDJSON:
            return NDJSONDocumentSource(
                file: try InputFile(path: path), decoder: RESTRecordDecoder(target: target, fieldsKept: fieldsKept), chunkSize: chunkSize, range: byteRange,
                numbering: lineNumbering)
        case .nodeFirestoreImportExport:
            return CollectionTreeSource(layout: NodeImportExportDecoder(), file: try parsedFile(), hints: hints, target: target)
        case .firestoreExportImport:
            return CollectionTreeSource(layout: ExportImportDecoder(), file: try parsedFile(), hints: hints, target: target)
        case .firestoreBackfire:
            return NDJSONDocumentSource(
                file: try InputFile(path: path), decoder: BackfireDecoder(target: target, hints: hints), chunkSize: chunkSize, range: byteRange,
                numbering: lineNumbering)
        case .bigQueryChangelog:
            return BigQueryChangelogDecoder(file: try InputFile(path: path), hints: hints, target: target, chunkSize: chunkSize)
        case .managedExport:
            return ManagedExportSource(folder: try ExportFolder(locating: path), target: target)
        case .firefoo:
            throw .unsupportedFormat(chosen, file: path, location: nil, evidence: "chosen with `format: \(chosen.rawValue)`")
        }
    }

    /// Reads the file at `path` (or the records of `byteRange`, as
    /// ``open(_:format:hints:byteRange:lineNumbering:)`` does), calling `body` with each document in file order, and
    /// `progress` with the bytes read so far whenever that grows (see
    /// ``ExportDocumentSource/bytesRead``; formats parsed as a whole do not call it).
    ///
    /// To stop early or fail with your own error, pull from ``open(_:format:hints:byteRange:lineNumbering:)`` instead.
    ///
    /// - Returns: the time the export was taken when the input records it (a managed or
    ///   emulator export), else nil.
    @discardableResult
    public func read(
        _ path: String, format: ExportFormat? = nil, hints: TypeHints = TypeHints(), byteRange: Range<Int>? = nil,
        lineNumbering: LineNumbering = .fromFileStart, progress: (Int) -> Void = { _ in }, each body: (ExportedDocument) -> Void
    ) throws(ExportError) -> Timestamp? {
        var source = try open(path, format: format, hints: hints, byteRange: byteRange, lineNumbering: lineNumbering)
        try source.forEach(progress: progress, body)
        return source.exportTime
    }

    /// Reads every document of the file at `path` into an array.
    public func readAll(_ path: String, format: ExportFormat? = nil, hints: TypeHints = TypeHints()) throws(ExportError) -> [ExportedDocument] {
        var documents: [ExportedDocument] = []
        try read(path, format: format, hints: hints) { documents.append($0) }
        return documents
    }
}
