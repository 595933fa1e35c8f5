import FirestoreModel

/// Why a ``BundleWriter`` refused its input. Each case says what is wrong and which rule of
/// bundle-format.md §10 it breaks, so the caller can fix the data or its own resolution of it.
public enum BundleWriterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The id is empty, contains `/`, or is otherwise unusable as the umbrella path `__bundle__/docs/<id>`.
    case invalidBundleID(String, reason: String)
    /// The snapshot time is not after the epoch; clients assert on zero read times (§7).
    case snapshotTimeNotPositive(Timestamp)
    /// A named query name is empty.
    case emptyQueryName
    /// A named query with this name was already added.
    case duplicateNamedQuery(String)
    /// The pre-encoded `bundledQuery` JSON is not something every client loads.
    case invalidBundledQuery(name: String, reason: String)
    /// A document with this path was already added.
    case duplicateDocument(ResourcePath)
    /// A document time is missing; the caller resolves missing times before writing.
    case missingDocumentTime(ResourcePath, field: String)
    /// A document's times break `0 < createTime ≤ updateTime ≤ snapshot time`.
    case documentTimesOutOfOrder(ResourcePath, createTime: Timestamp, updateTime: Timestamp, snapshotTime: Timestamp)
    /// A missing document's read time is not after the epoch or is after the snapshot time.
    case missingDocumentTimeOutOfOrder(ResourcePath, readTime: Timestamp, snapshotTime: Timestamp)
    /// A document lists a query name that is not a named query of this bundle (Android fails on it).
    case unknownQueryName(ResourcePath, query: String)
    /// A document lists the same query name twice.
    case duplicateQueryName(ResourcePath, query: String)
    /// A reference value points into another project or database, which iOS and Python reject.
    case foreignReference(ResourcePath, reference: ResourceName)
    /// More documents than the metadata's uint32 `totalDocuments` can count.
    case tooManyDocuments(Int)

    public var description: String {
        switch self {
        case .invalidBundleID(let id, let reason):
            return "bundle id \"\(id)\" is invalid: \(reason) (clients use it as the path __bundle__/docs/<id>)"
        case .snapshotTimeNotPositive(let time):
            return "snapshot time \(time) must be after 1970-01-01T00:00:00Z: Android and iOS assert on a zero read time"
        case .emptyQueryName:
            return "a named query needs a non-empty name"
        case .duplicateNamedQuery(let name):
            return "named query \"\(name)\" is added twice; names must be unique within a bundle"
        case .invalidBundledQuery(let name, let reason):
            return "named query \"\(name)\": \(reason)"
        case .duplicateDocument(let path):
            return "document \(path) is added twice; Android and iOS count distinct documents, so totalDocuments would be wrong"
        case .missingDocumentTime(let path, let field):
            return "document \(path) has no \(field); resolve missing times (e.g. to the snapshot time) before writing"
        case .documentTimesOutOfOrder(let path, let create, let update, let snapshot):
            return "document \(path) must satisfy 0 < createTime ≤ updateTime ≤ snapshot time, but createTime=\(create), updateTime=\(update), snapshot=\(snapshot)"
        case .missingDocumentTimeOutOfOrder(let path, let readTime, let snapshot):
            return "missing document \(path) must satisfy 0 < readTime ≤ snapshot time, but readTime=\(readTime), snapshot=\(snapshot)"
        case .unknownQueryName(let path, let query):
            return "document \(path) lists query \"\(query)\", which is not a named query of this bundle (Android throws a NullPointerException on it); add the named query first"
        case .duplicateQueryName(let path, let query):
            return "document \(path) lists query \"\(query)\" twice"
        case .foreignReference(let path, let reference):
            return "document \(path) holds a reference to \(reference), outside the bundle's database; iOS and Python reject references to another project or database"
        case .tooManyDocuments(let count):
            return "\(count) documents do not fit the metadata's uint32 totalDocuments"
        }
    }
}
