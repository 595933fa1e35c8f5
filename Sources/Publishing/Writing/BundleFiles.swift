import BundleFormat
import Crypto
import FirestoreModel
import Gzip

/// One bundle written as its two site files — the raw bundle and its gzip copy — in a scratch
/// directory, hashed on the way, without ever holding the bundle in memory.
///
/// A bundle starts with its metadata element, which counts the bytes of everything after it: the
/// writer counts them first (``BundleWriter/bodyByteCount(documentsPerRun:encodedFieldsCount:)``),
/// without encoding the fields of a document published whole (the archive knows their length; a
/// document a `fields:`/`redact:` rule narrows is encoded to count it, and again to write it),
/// then the metadata element and the body, as it is encoded, go through SHA-256, the raw file and
/// the gzip stream together, in one pass. Memory stays at a round of encoded runs plus a few gzip
/// blocks, whatever the bundle's size.
struct BundleFiles {
    var metadata: BundleMetadata
    /// The raw bundle and its gzip copy, both flushed to disk.
    var rawPath: String
    var gzipPath: String
    var byteCount: Int
    var gzipByteCount: Int
    /// Lowercase hex SHA-256 of the raw bundle.
    var sha256: String

    /// Encodes `writer`'s bundle, each document with the fields `encodedFields` gives (of the
    /// byte count `encodedFieldsCount` gives), into `<directory>/<name>.bundle` and
    /// `<name>.bundle.gz`, telling `progress` how far it has come.
    static func write(
        _ writer: BundleWriter, encodedFields: @escaping @Sendable (_ index: Int, Document) throws(PublishError) -> [UInt8],
        encodedFieldsCount: @escaping @Sendable (_ index: Int, Document) throws(PublishError) -> Int, into directory: String, name: String, gzipLevel: Int,
        progress: (BuildEvent) -> Void
    ) throws(BuildError) -> BundleFiles {
        do throws(PublishError) {
            let raw = try OutputFile(creating: "\(directory)/\(name).bundle")
            let gzip = try OutputFile(creating: "\(directory)/\(name).bundle.gz")
            /// What the compressor returns, or why it could not compress, as an error about the gzip file.
            func compressed<T>(_ body: () throws(GzipError) -> T) throws(PublishError) -> T {
                do throws(GzipError) { return try body() } catch { throw PublishError(path: gzip.path, message: "cannot compress: \(error)") }
            }
            let compressor = try compressed { () throws(GzipError) in try ParallelGzipCompressor(level: Int32(gzipLevel)) }
            let counted = writer.metadataElement(totalBytes: try writer.bodyByteCount(encodedFieldsCount: encodedFieldsCount))
            let bytes = counted.element.count + Int(counted.metadata.totalBytes)
            var hasher = SHA256()
            func feed(_ chunk: [UInt8]) throws(PublishError) {
                hasher.update(data: chunk)
                try raw.append(chunk)
                try gzip.append(compressed { () throws(GzipError) in try compressor.append(chunk) })
                progress(.writingBundle(bytesDone: raw.byteCount, bytes: bytes))
            }
            try feed(counted.element)
            try writer.encodeBody(matching: counted.metadata, encodedFields: encodedFields, writingTo: raw.path) { run throws(PublishError) in try feed(run) }
            try gzip.append(compressed { () throws(GzipError) in try compressor.finish() })
            try raw.finish()
            try gzip.finish()
            return BundleFiles(
                metadata: counted.metadata, rawPath: raw.path, gzipPath: gzip.path,
                byteCount: raw.byteCount, gzipByteCount: gzip.byteCount, sha256: hasher.finalize().hex)
        } catch {
            throw .publish(error)
        }
    }
}
