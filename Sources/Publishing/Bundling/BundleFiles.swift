#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BundleFormat
import Crypto
import FirestoreModel

/// One bundle written as its two site files — the raw bundle and its gzip copy — in a scratch
/// directory, hashed on the way, without ever holding the bundle in memory.
///
/// A bundle starts with its metadata element, which counts the bytes of everything after it, so
/// the body is encoded first into a scratch file; then the metadata element and the body, read
/// back a chunk at a time, go through SHA-256, the raw file and the gzip stream together.
/// Memory stays at a round of encoded runs plus a few gzip blocks, whatever the bundle's size.
struct BundleFiles {
    var metadata: BundleMetadata
    /// The raw bundle and its gzip copy, both flushed to disk.
    var rawPath: String
    var gzipPath: String
    var byteCount: Int
    var gzipByteCount: Int
    /// Lowercase hex SHA-256 of the raw bundle.
    var sha256: String

    /// Bytes read back from the body file at a time.
    private static let chunkSize = 1 << 20

    /// Encodes `writer`'s bundle, each document with the fields `encodedFields` gives, into
    /// `<directory>/<name>.bundle` and `<name>.bundle.gz`, telling `progress` how far encoding,
    /// then hashing and compressing, have come.
    static func write(
        _ writer: BundleWriter, encodedFields: @escaping @Sendable (Document) throws(PublishError) -> [UInt8], into directory: String, name: String, gzipLevel: Int,
        progress: (BuildEvent) -> Void
    ) throws(BuildError) -> BundleFiles {
        let bodyPath = "\(directory)/\(name).body"
        defer { unlink(bodyPath) }
        do throws(PublishError) {
            let body = try OutputFile(creating: bodyPath)
            let documents = writer.documentCount
            let (metadata, element) = try writer.encodeBody(
                encodedFields: encodedFields, progress: { progress(.encodingBundle(documentsEncoded: $0, documents: documents)) }
            ) {
                (run: [UInt8]) throws(PublishError) in try body.append(run)
            }
            let bytes = element.count + Int(metadata.totalBytes)
            let raw = try OutputFile(creating: "\(directory)/\(name).bundle")
            let gzip = try OutputFile(creating: "\(directory)/\(name).bundle.gz")
            /// What the compressor returns, or why it could not compress, as an error about the gzip file.
            func compressed<T>(_ body: () throws(GzipError) -> T) throws(PublishError) -> T {
                do throws(GzipError) { return try body() } catch { throw PublishError(path: gzip.path, message: "cannot compress: \(error)") }
            }
            let compressor = try compressed { () throws(GzipError) in try ParallelGzipCompressor(level: Int32(gzipLevel)) }
            var hasher = SHA256()
            func feed(_ chunk: [UInt8]) throws(PublishError) {
                hasher.update(data: chunk)
                try raw.append(chunk)
                try gzip.append(compressed { () throws(GzipError) in try compressor.append(chunk) })
                progress(.compressingBundle(bytesDone: raw.byteCount, bytes: bytes))
            }
            try feed(element)
            try FileChunks.forEach(ofFile: bodyPath, chunkSize: chunkSize, feed)
            try gzip.append(compressed { () throws(GzipError) in try compressor.finish() })
            try raw.finish()
            try gzip.finish()
            return BundleFiles(
                metadata: metadata, rawPath: raw.path, gzipPath: gzip.path,
                byteCount: raw.byteCount, gzipByteCount: gzip.byteCount, sha256: hasher.finalize().hex)
        } catch {
            throw .publish(error)
        }
    }
}
