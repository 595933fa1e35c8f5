import FirestoreModel

/// A bundle's `namedQuery.bundledQuery`: a ``Query`` and the database its parent belongs to.
public struct BundledQuery: Sendable, Equatable {
    public var database: DatabaseID
    public var query: Query

    public init(database: DatabaseID, query: Query) {
        self.database = database
        self.query = query
    }

    /// The query parent as a resource name: `projects/{p}/databases/{d}/documents[/doc/path]`.
    public var parentName: ResourceName {
        ResourceName(database: database, path: query.parent)
    }
}
