import FirestoreModel
import JSONCore

/// A `namedQuery` element: a query a client can run by name (`namedQuery(db, name)`) over the
/// bundled documents, with the time its results were true.
public struct NamedQuery: Sendable {
    /// The name clients look the query up by.
    public var name: String
    /// The `bundledQuery` object (`{"parent","structuredQuery","limitType"}`) as raw JSON.
    public var bundledQuery: RawJSON
    /// When the bundled results were true; clients resume listening from here.
    public var readTime: Timestamp

    public init(name: String, bundledQuery: RawJSON, readTime: Timestamp) {
        self.name = name
        self.bundledQuery = bundledQuery
        self.readTime = readTime
    }
}

/// A JSON value kept as the exact bytes it was written or read as, plus its parse tree when it
/// came from a reader.
///
/// BundleFormat does not model structured queries (the QueryEngine module does); it only moves
/// their JSON through unchanged, so a writer takes pre-encoded bytes and a reader hands back both
/// the bytes and the parsed node.
public struct RawJSON: Sendable {
    /// The JSON text, byte for byte.
    public var bytes: [UInt8]
    /// The parsed value (offsets relative to the start of `bytes`) when read from a bundle;
    /// nil for JSON supplied to a writer.
    public var node: JSONNode?

    public init(bytes: [UInt8], node: JSONNode? = nil) {
        self.bytes = bytes
        self.node = node
    }
}
