import JSONCore

/// Why an export file could not be read. Every case says where (a file, and a line and column
/// when there is one), what was found and what was expected.
public enum ExportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or read (`reason` is the system's explanation).
    case unreadable(file: String, reason: String)
    /// The path names a directory, not an export file.
    case isDirectory(file: String)
    /// The file holds nothing but whitespace.
    case empty(file: String)
    /// The file is not valid JSON at `location`.
    case syntax(SourceLocation, message: String)
    /// A document (its name, a value, a time) is invalid at `location`.
    case invalidDocument(SourceLocation, message: String)
    /// A record of a REST export is none of the shapes that hold documents.
    case notADocument(SourceLocation, found: String)
    /// The file is in a format ``ExportReader`` cannot read yet; `evidence` says what gave it away.
    case unsupportedFormat(ExportFormat, file: String, location: SourceLocation?, evidence: String)
    /// The file could be in any of `candidates`, none of which can be told apart or read yet.
    case ambiguousFormat(candidates: [ExportFormat], location: SourceLocation, evidence: String)
    /// The file is JSON but in no format the detector knows.
    case unrecognizedFormat(SourceLocation, found: String)
    /// A binary export file (a LevelDB log of a managed or emulator export) is damaged, truncated
    /// or holds something other than what its format allows at `location` (a byte offset).
    case invalidBinary(SourceLocation, message: String)
    /// The folder (or metadata file) at `path` is not a complete managed or emulator export.
    case invalidExportFolder(path: String, message: String)
    /// The same document was read twice: at `first` and again at `second`.
    case duplicateDocument(String, first: SourceLocation, second: SourceLocation)
    /// `hints:` were given for a file whose format already carries every value's type.
    case hintsNotApplicable(ExportFormat, file: String)

    public var description: String {
        switch self {
        case .unreadable(let file, let reason):
            return "\(file): cannot read the file: \(reason)"
        case .isDirectory(let file):
            return "\(file): is a directory; expected an export file (JSON or NDJSON) or the folder of a managed or emulator export"
        case .empty(let file):
            return "\(file): the file is empty; expected a Firestore export (JSON or NDJSON)"
        case .syntax(let location, let message):
            return "\(location): invalid JSON: \(message)"
        case .invalidDocument(let location, let message):
            return "\(location): \(message)"
        case .notADocument(let location, let found):
            return "\(location): expected a Firestore REST document {\"name\", \"fields\", …}, a runQuery element "
                + "{\"document\", …}, a batchGet element {\"found\"|\"missing\", …} or a documents.list page "
                + "{\"documents\": […]}; found \(found)"
        case .unsupportedFormat(let format, let file, let location, let evidence):
            return "\(location?.description ?? file): looks like \(format.displayName) (\(evidence)); "
                + "the \"\(format.rawValue)\" format is not supported yet. \(format.workaround)"
        case .ambiguousFormat(let candidates, let location, let evidence):
            let names = candidates.map { "\($0.displayName) (format: \($0.rawValue))" }.joined(separator: " or ")
            let unsupported = candidates.filter { !$0.isSupported }.map(\.rawValue)
            let support = unsupported.isEmpty ? "" : " Not supported yet: \(unsupported.joined(separator: ", "))."
            return "\(location): ambiguous export format (\(evidence)): it could be \(names); set `format:` to choose.\(support)"
        case .unrecognizedFormat(let location, let found):
            return "\(location): not a known Firestore export format: expected Firestore REST JSON or NDJSON "
                + "(documents {\"name\", \"fields\", …}, runQuery/batchGet responses or documents.list pages), "
                + "a node-firestore-import-export or firestore-export-import JSON tree, or firestore-backfire or "
                + "BigQuery raw changelog NDJSON; found \(found)"
        case .invalidBinary(let location, let message):
            return "\(location): \(message)"
        case .invalidExportFolder(let path, let message):
            return "\(path): \(message)"
        case .duplicateDocument(let path, let first, let second):
            return "\(second): document \(path) was already read at \(first); expected each document once"
        case .hintsNotApplicable(let format, let file):
            return "\(file): `hints:` were given, but the file is \(format.displayName), whose values carry their types; "
                + "remove `hints:` from this input (hints are for the formats that lose types)"
        }
    }
}
