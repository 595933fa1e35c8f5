import FirestoreModel

/// A stream of documents from one export file, read on demand.
///
/// This is the seam between ``ExportReader`` and the format readers: each format provides a
/// source, and callers pull documents one at a time, so they can stop, or throw their own
/// errors, whenever they like.
public protocol ExportDocumentSource {
    /// The next document, or nil at the end of the file.
    mutating func next() throws(ExportError) -> ExportedDocument?

    /// The time the export was taken, when the format records it (managed and emulator
    /// exports); a build's natural snapshot time.
    var exportTime: Timestamp? { get }
}

extension ExportDocumentSource {
    /// Most formats do not record when they were exported.
    public var exportTime: Timestamp? { nil }
}
