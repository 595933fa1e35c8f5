/// A Firestore database: `projects/{project}/databases/{database}`.
public struct DatabaseID: Sendable, Hashable, CustomStringConvertible {
    public static let defaultDatabase = "(default)"

    public var project: String
    public var database: String

    public init(project: String, database: String = DatabaseID.defaultDatabase) {
        self.project = project
        self.database = database
    }

    /// `projects/{project}/databases/{database}`.
    public var resourceName: String { "projects/\(project)/databases/\(database)" }

    /// `projects/{project}/databases/{database}/documents`, the root every query parent and
    /// document name starts with.
    public var documentsRoot: String { resourceName + "/documents" }

    public var description: String { resourceName }

    public static func == (lhs: DatabaseID, rhs: DatabaseID) -> Bool {
        UTF8Order.equal(lhs.project, rhs.project) && UTF8Order.equal(lhs.database, rhs.database)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(Array(project.utf8))
        hasher.combine(Array(database.utf8))
    }
}
