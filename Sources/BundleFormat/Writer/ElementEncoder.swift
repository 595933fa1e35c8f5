import FirestoreModel
import JSONCore

/// Encodes the JSON of each element kind exactly as bundle-format.md §10 prescribes (compact,
/// ASCII-only, fixed key order), and frames it as `<len><json>`.
///
/// Elements are written into a scratch writer whose storage is reused from one element to the
/// next, then framed into the run being built: no allocation per element.
enum ElementEncoder {
    /// Appends `<decimal byte count><json>` to `out`, with the JSON `write` puts into `scratch`
    /// (emptied first).
    static func appendFramed(to out: inout JSONWriter, scratch: inout JSONWriter, _ write: (inout JSONWriter) -> Void) {
        scratch.removeAll()
        write(&scratch)
        out.integer(scratch.count)
        out.raw(bytes: scratch.bytes)
    }

    /// The bytes an element of `jsonCount` bytes of JSON takes framed: its decimal count, then it.
    static func framedCount(_ jsonCount: Int) -> Int {
        var digits = 1
        var rest = jsonCount
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        return digits + jsonCount
    }

    static func metadata(_ metadata: BundleMetadata, into writer: inout JSONWriter) {
        writer.raw("{\"metadata\":")
        metadata.encodeJSON(into: &writer)
        writer.byte(UInt8(ascii: "}"))
    }

    static func namedQuery(name: String, bundledQuery: [UInt8], readTime: String, into writer: inout JSONWriter) {
        writer.raw("{\"namedQuery\":{\"name\":")
        writer.string(name)
        writer.raw(",\"bundledQuery\":")
        writer.raw(bytes: bundledQuery)
        writer.raw(",\"readTime\":")
        writer.string(readTime)
        writer.raw("}}")
    }

    /// `quotedName` is the document's resource name as a JSON string literal, quotes included,
    /// written once for both of its elements.
    static func documentMetadata(quotedName: [UInt8], readTime: String, exists: Bool, queries: [String], into writer: inout JSONWriter) {
        writer.raw("{\"documentMetadata\":")
        BundledDocumentMetadata.encodeJSON(quotedName: quotedName, readTime: readTime, exists: exists, queries: queries, into: &writer)
        writer.byte(UInt8(ascii: "}"))
    }

    static func document(_ document: Document, quotedName: [UInt8], into writer: inout JSONWriter) {
        writer.raw("{\"document\":")
        document.encodeBundleJSON(into: &writer, quotedName: quotedName)
        writer.byte(UInt8(ascii: "}"))
    }

    /// The same with the document's `fields` object already encoded.
    static func document(_ document: Document, quotedName: [UInt8], encodedFields: [UInt8], into writer: inout JSONWriter) {
        writer.raw("{\"document\":")
        document.encodeBundleJSON(into: &writer, quotedName: quotedName, encodedFields: encodedFields)
        writer.byte(UInt8(ascii: "}"))
    }
}
