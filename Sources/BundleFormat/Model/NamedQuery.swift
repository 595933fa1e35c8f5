import FirestoreModel

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
