import FirestoreModel

/// Moves documents read from an export into the target database.
///
/// A document's name loses its source project and database (a `Document` path is relative).
/// References into the document's source database follow it to the target; references into
/// any other database are kept as they are, so a later validation stage can judge them.
struct DocumentReRooter: Sendable {
    let target: DatabaseID

    func reRoot(_ document: Document, from source: DatabaseID) -> Document {
        guard source != target else { return document }
        var moved = document
        moved.fields = document.fields.mappingReferences { reRoot($0, from: source) }
        return moved
    }

    /// `value`, a value of a document read from `source`, with its references moved as the
    /// document's are.
    func reRoot(_ value: Value, from source: DatabaseID) -> Value {
        guard source != target else { return value }
        return value.mappingReferences { reRoot($0, from: source) }
    }

    /// `name`, a reference in a document read from `source`: in the target when it was in
    /// `source`, else as it is.
    func reRoot(_ name: ResourceName, from source: DatabaseID) -> ResourceName {
        name.database == source ? ResourceName(database: target, path: name.path) : name
    }
}
