import FirestoreModel
import JSONCore

/// How an export format that nests documents lays out its tree: collections are objects of
/// document ID → document object, and each document object holds its subcollections under one
/// reserved member. ``CollectionTreeSource`` walks any such layout.
protocol CollectionTreeLayout: Sendable {
    /// The shapes of the format's untagged values.
    var dialect: UntypedJSONDialect { get }
    /// The member of a document object that holds its subcollections.
    var subcollectionsKey: String { get }
    /// Whether a document object without fields but with subcollections stands for a missing
    /// parent document rather than an empty one (such objects are then skipped).
    var fieldlessParentsAreMissing: Bool { get }

    /// The collections at the top of the file.
    func rootCollections(of root: JSONNode) throws(JSONDecodingError) -> [CollectionNode]

    /// The collection that `key` in the subcollections member of `document` names.
    func subcollection(_ key: String, of document: ResourcePath) throws(PathError) -> ResourcePath
}

/// A collection in a nested export: its path and its JSON (an object of ID → document).
struct CollectionNode {
    var path: ResourcePath
    var node: JSONNode
}
