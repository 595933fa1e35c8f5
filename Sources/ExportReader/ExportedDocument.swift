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
    /// When the reader was asked to decode only some fields (``ExportReader/fieldsKept``) and
    /// could: every field, encoded as a bundle carries them
    /// (``FirestoreModel/MapValue/encodeFields(into:)``), while `document` holds only those it
    /// was asked for. Every reference in them is in the target database. Nil when `document`
    /// holds every field.
    public var encodedFields: [UInt8]?

    public init(document: Document, sourceDatabase: DatabaseID, location: SourceLocation, encodedFields: [UInt8]? = nil) {
        self.document = document
        self.sourceDatabase = sourceDatabase
        self.location = location
        self.encodedFields = encodedFields
    }
}
