/// A stored document: its path below the database root, its fields, and its times.
///
/// Times are optional because several export formats do not carry them; a build fills them
/// from its snapshot time before anything is written.
public struct Document: Sendable {
    public var path: ResourcePath
    public var fields: MapValue
    public var createTime: Timestamp?
    public var updateTime: Timestamp?

    public init(path: ResourcePath, fields: MapValue, createTime: Timestamp? = nil, updateTime: Timestamp? = nil) {
        precondition(path.isDocument, "a document path has an even number of segments")
        self.path = path
        self.fields = fields
        self.createTime = createTime
        self.updateTime = updateTime
    }

    /// The document ID (last path segment).
    public var id: String { path.lastSegment! }

    /// The ID of the collection holding the document.
    public var collectionID: String { path.segments[path.count - 2] }

    /// The value at `fieldPath`, or nil when absent. `__name__` is the document's reference.
    public func value(at fieldPath: FieldPath, database: DatabaseID) -> Value? {
        if fieldPath.isDocumentKey {
            return .reference(ResourceName(database: database, path: path))
        }
        return fields.value(at: fieldPath)
    }
}
