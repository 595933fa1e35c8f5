/// One thing wrong with a bundle: what, where, and which clients fail on it.
///
/// ``BundleReader`` reports two severities. An *error* is something at least one of the JS,
/// Android, iOS or Python readers rejects, or something that loads but silently gives clients
/// wrong results (bundle-format.md §1–§7). A *warning* is a deviation from the emitter contract
/// (§10) that every client still handles correctly, such as pretty-printed JSON.
public struct BundleProblem: Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem this is; stable, for tests and tooling.
    public enum Code: String, Sendable, Equatable {
        // Whole-file problems.
        case corruptGzip
        // Framing (§1).
        case invalidLengthPrefix
        case whitespaceInLengthPrefix
        case lengthMismatch
        case truncatedElement
        case trailingBytes
        case invalidJSON
        // Element order and counts (§2).
        case unknownElement
        case metadataNotFirst
        case namedQueryAfterDocuments
        case documentWithoutMetadata
        case metadataWithoutDocument
        case missingDocument
        case duplicateDocument
        case duplicateNamedQuery
        case unknownQueryName
        case totalDocumentsMismatch
        case totalBytesMismatch
        // Fields (§3, §6, §7).
        case unknownKey
        case missingField
        case wrongType
        case invalidBundleID
        case invalidName
        case databaseMismatch
        case invalidTimestamp
        case timestampForm
        case zeroTime
        case timesOutOfOrder
        // Values (§4) and queries (§5).
        case invalidValue
        case unsupportedQuery
        // Warnings: loads everywhere, but differs from §10.
        case nonCanonical
    }

    public let code: Code
    /// Index of the element (0 = metadata), or nil for a problem of the whole file.
    public let elementIndex: Int?
    /// Byte offset in the (decompressed) bundle where the problem is.
    public let offset: Int
    /// A sentence saying what is wrong and which client(s) fail and why.
    public let message: String

    public init(code: Code, elementIndex: Int?, offset: Int, message: String) {
        self.code = code
        self.elementIndex = elementIndex
        self.offset = offset
        self.message = message
    }

    public var description: String {
        let place = elementIndex.map { "element \($0), byte \(offset)" } ?? "byte \(offset)"
        return "\(place): \(message) [\(code.rawValue)]"
    }
}
