import FirestoreModel

/// A bundle the strict reader accepted.
public struct BundleContents: Sendable {
    /// The first element.
    public var metadata: BundleMetadata
    /// The database every name in the bundle belongs to (nil for a bundle with no names, e.g.
    /// metadata only).
    public var database: DatabaseID?
    /// The named queries, in bundle order.
    public var namedQueries: [NamedQuery]
    /// The documents with their metadata, in bundle order.
    public var documents: [BundledDocument]
    /// Deviations from bundle-format.md §10 that every client still loads correctly.
    public var warnings: [BundleProblem]
    /// True when the input was gzip.
    public var wasGzipped: Bool

    public init(
        metadata: BundleMetadata, database: DatabaseID?, namedQueries: [NamedQuery],
        documents: [BundledDocument], warnings: [BundleProblem], wasGzipped: Bool
    ) {
        self.metadata = metadata
        self.database = database
        self.namedQueries = namedQueries
        self.documents = documents
        self.warnings = warnings
        self.wasGzipped = wasGzipped
    }
}
