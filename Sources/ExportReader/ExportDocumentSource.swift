/// A stream of documents from one export file, read on demand.
///
/// This is the seam between ``ExportReader`` and the format readers: each format provides a
/// source, and callers pull documents one at a time, so they can stop, or throw their own
/// errors, whenever they like.
public protocol ExportDocumentSource {
    /// The next document, or nil at the end of the file.
    mutating func next() throws(ExportError) -> ExportedDocument?
}
