import FirestoreModel
import JSONCore

/// Reads Firestore export files into documents of the target database.
///
/// Document names are re-rooted to ``target`` whatever project and database the export names
/// (relative names are taken as relative to it), and so are references into the same database
/// as their document; references into other databases are kept for a later stage to judge.
///
/// NDJSON is streamed in chunks of ``chunkSize`` bytes, so memory stays at a chunk plus the
/// longest line. A single-JSON-value file is read and parsed whole.
public struct ExportReader: Sendable {
    /// 4 MiB: large enough that reads cost nothing next to parsing.
    public static let defaultChunkSize = 4 << 20

    /// The database every document and same-database reference is moved into.
    public var target: DatabaseID
    /// How many bytes NDJSON reading asks the file for at a time (tests use tiny sizes).
    public var chunkSize: Int

    public init(target: DatabaseID, chunkSize: Int = ExportReader.defaultChunkSize) {
        precondition(chunkSize > 0, "the chunk size must be positive")
        self.target = target
        self.chunkSize = chunkSize
    }

    /// The format of the file at `path`, or an error naming the unsupported or unknown format.
    public func detectFormat(of path: String) throws(ExportError) -> ExportFormat {
        switch try FormatDetector(chunkSize: chunkSize).detect(path) {
        case .ndjson: return .restNDJSON
        case .singleValue: return .rest
        }
    }

    /// Opens the file at `path` as a stream of documents.
    ///
    /// - Parameter format: the format from `pipeline.yml`; nil detects it from the content.
    public func open(_ path: String, format: ExportFormat? = nil) throws(ExportError) -> any ExportDocumentSource {
        guard let format else {
            switch try FormatDetector(chunkSize: chunkSize).detect(path) {
            case .ndjson:
                return NDJSONDocumentSource(file: try InputFile(path: path), target: target, chunkSize: chunkSize)
            case .singleValue(let parsed):
                return SingleValueDocumentSource(root: parsed.root, sourceMap: parsed.sourceMap, target: target)
            }
        }
        switch format {
        case .rest:
            let parsed = try ParsedFile.read(try InputFile(path: path))
            return SingleValueDocumentSource(root: parsed.root, sourceMap: parsed.sourceMap, target: target)
        case .restNDJSON:
            return NDJSONDocumentSource(file: try InputFile(path: path), target: target, chunkSize: chunkSize)
        default:
            throw .unsupportedFormat(format, file: path, location: nil, evidence: "chosen with `format: \(format.rawValue)`")
        }
    }

    /// Reads the file at `path`, calling `body` with each document in file order.
    ///
    /// To stop early or fail with your own error, pull from ``open(_:format:)`` instead.
    public func read(_ path: String, format: ExportFormat? = nil, each body: (ExportedDocument) -> Void) throws(ExportError) {
        var source = try open(path, format: format)
        while let document = try source.next() {
            body(document)
        }
    }

    /// Reads every document of the file at `path` into an array.
    public func readAll(_ path: String, format: ExportFormat? = nil) throws(ExportError) -> [ExportedDocument] {
        var documents: [ExportedDocument] = []
        try read(path, format: format) { documents.append($0) }
        return documents
    }
}
