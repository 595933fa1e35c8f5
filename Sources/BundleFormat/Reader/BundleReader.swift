import FirestoreModel
import Gzip
import JSONCore

/// The strict bundle reader behind `bundlepress inspect` and `verify`.
///
/// It accepts a bundle only if the JS, Android, iOS **and** Python readers all load it and
/// nothing in it silently misleads a client (bundle-format.md §1–§7): wrong counts, unpaired
/// documents, unknown query names, zero or non-UTC times, `{seconds,nanos}` times, integer `-0`
/// doubles, unknown keys, query features Android or iOS refuse, names from several databases.
///
/// Errors versus warnings: anything that fails at least one client or gives wrong results is an
/// error. That includes missing documents (`exists:false`), which JS, Android and iOS load but
/// Python cannot, unless the caller accepts them (``MissingDocuments/accepted``: a site's
/// tombstones for returning clients). Deviations from the §10 emitter contract that every client reads correctly
/// (pretty-printed JSON, raw non-ASCII, fewer than nine fraction digits, a missing
/// `document.createTime`, `version` ≠ 1, leading zeros in a prefix) are warnings, each kind
/// reported once.
public enum BundleReader {
    /// Reads a bundle, raw or gzip (detected by the `1F 8B` magic).
    /// - Parameters:
    ///   - bytes: the file's bytes.
    ///   - database: the app's project and database, when known; every name must be in it.
    ///     Without it, the database of the first name read is required of all others.
    /// - Throws: ``BundleReadError`` with every error found, each with its element index, byte
    ///   offset (into the decompressed bundle) and the clients that fail.
    ///   - audience: the readers the bundle must load in; with ``BundleAudience/webOnly`` OR
    ///     filters are accepted.
    ///   - missingDocuments: whether tombstones are accepted (the SDKs load them, Python does not).
    public static func read(
        _ bytes: [UInt8], database: DatabaseID? = nil, audience: BundleAudience = .allClients, missingDocuments: MissingDocuments = .rejected
    ) throws(BundleReadError) -> BundleContents {
        let options = (audience: audience, missingDocuments: missingDocuments)
        guard GzipDecompressor.isGzip(bytes) else {
            return try readRaw(bytes, database: database, options: options, wasGzipped: false)
        }
        let raw: [UInt8]
        do {
            raw = try GzipDecompressor.decompress(bytes)
        } catch {
            throw BundleReadError(problems: [BundleProblem(code: .corruptGzip, elementIndex: nil, offset: error.offset, message: "\(error.message): a browser or CDN cannot decode it and no client sees a bundle")], warnings: [])
        }
        return try readRaw(raw, database: database, options: options, wasGzipped: true)
    }

    private static func readRaw(
        _ bytes: [UInt8], database: DatabaseID?, options: (audience: BundleAudience, missingDocuments: MissingDocuments), wasGzipped: Bool
    ) throws(BundleReadError) -> BundleContents {
        // Take the results out inside the closure: the scanner points into `bytes`.
        let (log, metadata, namedQueries, documents) = bytes.withUnsafeBufferPointer { buffer in
            var scanner = BundleScanner(bytes: buffer, database: database, audience: options.audience, missingDocuments: options.missingDocuments)
            scanner.run()
            return (scanner.log, scanner.metadata, scanner.namedQueries, scanner.documents)
        }
        guard log.errors.isEmpty, let metadata else {
            throw BundleReadError(problems: log.errors, warnings: log.warnings)
        }
        return BundleContents(
            metadata: metadata, database: log.database, namedQueries: namedQueries,
            documents: documents, warnings: log.warnings, wasGzipped: wasGzipped
        )
    }
}
