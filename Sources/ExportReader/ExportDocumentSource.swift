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

    /// The bytes of the input read so far, for a progress display: it grows while the source
    /// reads as it goes (NDJSON files, export folders). Nil for formats parsed as a whole first.
    var bytesRead: Int? { get }
}

extension ExportDocumentSource {
    /// Most formats do not record when they were exported.
    public var exportTime: Timestamp? { nil }

    /// Formats parsed as a whole before their first document cannot say how far they are.
    public var bytesRead: Int? { nil }
}

extension ExportDocumentSource {
    /// Hands every document left to `body` in order, and tells `progress` the bytes read
    /// whenever that grows (see ``bytesRead``).
    public mutating func forEach(progress: (Int) -> Void = { _ in }, _ body: (ExportedDocument) -> Void) throws(ExportError) {
        var reported = 0
        while let document = try next() {
            if let bytesRead, bytesRead > reported {
                reported = bytesRead
                progress(bytesRead)
            }
            body(document)
        }
    }
}
