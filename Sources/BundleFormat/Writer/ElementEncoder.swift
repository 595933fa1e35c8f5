import FirestoreModel
import JSONCore

/// Encodes the JSON of each element kind exactly as bundle-format.md §10 prescribes (compact,
/// ASCII-only, fixed key order), and frames it as `<len><json>`.
enum ElementEncoder {
    /// Appends `<decimal byte count><json>`.
    static func appendFramed(_ json: [UInt8], to out: inout [UInt8]) {
        var prefix = JSONWriter(reservingCapacity: 12)
        prefix.integer(json.count)
        out.append(contentsOf: prefix.bytes)
        out.append(contentsOf: json)
    }

    /// The byte count of `<len><json>` for a JSON text of `jsonCount` bytes.
    static func framedCount(jsonCount: Int) -> Int {
        String(jsonCount).utf8.count + jsonCount
    }

    static func metadata(_ metadata: BundleMetadata) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 160)
        writer.raw("{\"metadata\":")
        metadata.encodeJSON(into: &writer)
        writer.byte(UInt8(ascii: "}"))
        return writer.bytes
    }

    static func namedQuery(name: String, bundledQuery: [UInt8], readTime: String) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: bundledQuery.count + 96)
        writer.raw("{\"namedQuery\":{\"name\":")
        writer.string(name)
        writer.raw(",\"bundledQuery\":")
        writer.raw(bytes: bundledQuery)
        writer.raw(",\"readTime\":")
        writer.string(readTime)
        writer.raw("}}")
        return writer.bytes
    }

    static func documentMetadata(name: String, readTime: String, exists: Bool, queries: [String]) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: name.utf8.count + 128)
        writer.raw("{\"documentMetadata\":")
        BundledDocumentMetadata.encodeJSON(name: name, readTime: readTime, exists: exists, queries: queries, into: &writer)
        writer.byte(UInt8(ascii: "}"))
        return writer.bytes
    }

    static func document(_ document: Document, database: DatabaseID) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 512)
        writer.raw("{\"document\":")
        document.encodeBundleJSON(into: &writer, database: database)
        writer.byte(UInt8(ascii: "}"))
        return writer.bytes
    }
}
