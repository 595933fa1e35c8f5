import FirestoreModel
import JSONCore

/// The first element of every bundle: `{"metadata":{"id","createTime","version","totalDocuments","totalBytes"}}`.
///
/// Clients key their bundle cache on `id` and skip a load whose `createTime` is not newer than
/// the cached one (bundle-format.md §2), so a changed bundle needs a later `createTime`.
public struct BundleMetadata: Sendable, Equatable {
    /// The bundle id: non-empty, without `/` (clients build the path `__bundle__/docs/<id>` from it).
    public var id: String
    /// The snapshot time of the bundle; BundlePress uses it as every read time too.
    public var createTime: Timestamp
    /// The bundle format version; always 1 in practice (no client checks it).
    public var version: UInt32
    /// The number of distinct documents (found and missing) in the bundle.
    public var totalDocuments: UInt32
    /// The bytes of every element after the metadata element (prefix digits plus JSON).
    public var totalBytes: UInt64

    public init(id: String, createTime: Timestamp, version: UInt32 = 1, totalDocuments: UInt32, totalBytes: UInt64) {
        self.id = id
        self.createTime = createTime
        self.version = version
        self.totalDocuments = totalDocuments
        self.totalBytes = totalBytes
    }
}

extension BundleMetadata {
    /// Writes `{"id","createTime","version","totalDocuments","totalBytes"}` exactly as a bundle's
    /// metadata element holds it (bundle-format.md §10).
    public func encodeJSON(into writer: inout JSONWriter) {
        writer.raw("{\"id\":")
        writer.string(id)
        writer.raw(",\"createTime\":")
        writer.string(createTime.rfc3339)
        writer.raw(",\"version\":")
        writer.integer(version)
        writer.raw(",\"totalDocuments\":")
        writer.integer(totalDocuments)
        writer.raw(",\"totalBytes\":")
        writer.integer(totalBytes)
        writer.byte(UInt8(ascii: "}"))
    }
}
