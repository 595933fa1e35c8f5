import FirestoreModel

/// A `documentMetadata` element: announces a document, says whether it exists, and lists the
/// named queries whose results contain it.
public struct BundledDocumentMetadata: Sendable, Equatable {
    /// The document's full resource name.
    public var name: ResourceName
    /// When the document was read; the version of a missing document.
    public var readTime: Timestamp
    /// False for a missing (deleted) document, which has no `document` element.
    public var exists: Bool
    /// Names of the named queries whose results include this document.
    public var queries: [String]

    public init(name: ResourceName, readTime: Timestamp, exists: Bool, queries: [String]) {
        self.name = name
        self.readTime = readTime
        self.exists = exists
        self.queries = queries
    }
}
