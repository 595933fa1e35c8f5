/// A Firestore database: `projects/{project}/databases/{database}`.
public struct DatabaseID: Sendable, Hashable, CustomStringConvertible {
    public static let defaultDatabase = "(default)"

    public var project: String
    public var database: String

    public init(project: String, database: String = DatabaseID.defaultDatabase) {
        self.project = project
        self.database = database
    }

    /// The database whose project and database are the UTF-8 `project` and `database`, with
    /// `known`'s Strings for those that are the same bytes as its own (no new Strings then).
    init(project: UnsafeBufferPointer<UInt8>, database: UnsafeBufferPointer<UInt8>, reusing known: DatabaseID?) {
        func string(_ bytes: UnsafeBufferPointer<UInt8>, reusing known: String?) -> String {
            if var known, known.withUTF8({ UTF8Order.compare(bytes: $0, bytes) == .equal }) { return known }
            return String(decoding: bytes, as: UTF8.self)
        }
        self.init(project: string(project, reusing: known?.project), database: string(database, reusing: known?.database))
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
