import FirestoreModel
import JSONCore

/// A document read from an export, already re-rooted to the target database.
public struct ExportedDocument: Sendable {
    /// The document; its path is below the target database's documents root.
    public var document: Document
    /// The database the export named for this document (before re-rooting), e.g. to warn when
    /// an export from another project is published.
    public var sourceDatabase: DatabaseID
    /// Where the document's JSON object starts in the export file.
    public var location: SourceLocation

    public init(document: Document, sourceDatabase: DatabaseID, location: SourceLocation) {
        self.document = document
        self.sourceDatabase = sourceDatabase
        self.location = location
    }
}
