import FirestoreModel

/// Document names as the export formats write them: a full resource name
/// (`projects/p/databases/d/documents/users/lurie`) or a path relative to a database (`users/lurie`).
enum DocumentName {
    /// The document `text` names; a relative path belongs to `database`.
    static func parse(_ text: String, relativeTo database: DatabaseID) throws(PathError) -> ResourceName {
        let name = ResourceName.looksQualified(text)
            ? try ResourceName(parsing: text)
            : ResourceName(database: database, path: try ResourcePath(parsing: text))
        guard name.path.isDocument else {
            throw PathError("\"\(text)\" does not name a document (it needs an even number of path segments)")
        }
        return name
    }
}
