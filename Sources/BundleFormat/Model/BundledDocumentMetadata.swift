import FirestoreModel
import JSONCore

/// A `documentMetadata` element: announces a document, says whether it exists, and lists the
/// named queries whose results contain it.
public struct BundledDocumentMetadata: Sendable, Equatable {
    /// The document's full resource name.
    public var name: ResourceName
    /// When the document was read; the version of a missing document.
    public var readTime: Timestamp
    /// False for a missing (deleted) document, which has no `document` element.
    public var exists: Bool
    /// Names of the named queries whose results include this document.
    public var queries: [String]

    public init(name: ResourceName, readTime: Timestamp, exists: Bool, queries: [String]) {
        self.name = name
        self.readTime = readTime
        self.exists = exists
        self.queries = queries
    }
}

extension BundledDocumentMetadata {
    /// Writes `{"name","readTime","exists","queries"}` exactly as a bundle's documentMetadata
    /// element holds it (bundle-format.md §10).
    public func encodeJSON(into writer: inout JSONWriter) {
        Self.encodeJSON(quotedName: name.quotedJSON, readTime: readTime.rfc3339, exists: exists, queries: queries, into: &writer)
    }

    /// The same from pre-formatted parts, so the writer formats the shared read time once and
    /// each document's name (a JSON string literal, quotes included) once for both its elements.
    static func encodeJSON(quotedName: [UInt8], readTime: String, exists: Bool, queries: [String], into writer: inout JSONWriter) {
        writer.raw("{\"name\":")
        writer.raw(bytes: quotedName)
        writer.raw(",\"readTime\":")
        writer.string(readTime)
        writer.raw(",\"exists\":")
        writer.bool(exists)
        writer.raw(",\"queries\":[")
        for (index, query) in queries.enumerated() {
            if index > 0 { writer.byte(UInt8(ascii: ",")) }
            writer.string(query)
        }
        writer.raw("]}")
    }
}
