import FirestoreModel

/// One document entry of a bundle: its metadata element and, when it exists, its document.
public struct BundledDocument: Sendable {
    public var metadata: BundledDocumentMetadata
    /// The `document` element; nil for a missing document.
    public var document: Document?

    public init(metadata: BundledDocumentMetadata, document: Document?) {
        self.metadata = metadata
        self.document = document
    }
}
