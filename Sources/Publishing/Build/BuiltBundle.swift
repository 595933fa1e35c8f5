import BundleFormat
import Crypto
import FirestoreModel
import QueryEngine

/// One bundle, encoded and compressed, named by its content hash.
struct BuiltBundle {
    var id: String
    var encoded: EncodedBundle
    var gzip: [UInt8]
    /// Lowercase hex SHA-256 of the raw bundle bytes.
    var sha256: String
    var namedQueries: [String]

    /// `<id>.<first 16 hex digits of the SHA-256>.bundle`.
    var fileName: String { "\(id).\(sha256.prefix(16)).bundle" }
    var gzipFileName: String { fileName + ".gz" }

    /// Runs the bundle's named queries over `store`, adds their results and the explicit
    /// documents, and encodes, hashes and compresses the bundle.
    static func build(_ spec: BundleSpec, store: DocumentStore, snapshotTime: Timestamp, gzipLevel: Int, audience: BundleAudience) throws(BuildError) -> BuiltBundle {
        var writer: BundleWriter
        do throws(BundleWriterError) {
            writer = try BundleWriter(id: spec.id, snapshotTime: snapshotTime, database: store.database, audience: audience)
        } catch {
            throw .bundle(id: spec.id, error)
        }
        var membership: [ResourcePath: [String]] = [:]
        var documents: [ResourcePath: Document] = [:]
        for named in spec.queries {
            let bundled = BundledQuery(database: store.database, query: named.query)
            do throws(BundleWriterError) {
                try writer.addNamedQuery(name: named.name, bundledQuery: bundled.jsonBytes)
            } catch {
                // The query came from pipeline.yml: point at it, so the user knows what to change.
                throw .config(ConfigError("bundle \"\(spec.id)\": \(error)", at: named.location))
            }
            for document in store.evaluate(named.query) {
                membership[document.path, default: []].append(named.name)
                documents[document.path] = document
            }
        }
        for path in spec.documents {
            guard let document = store.document(at: path) else {
                throw .config(ConfigError("bundle \"\(spec.id)\" lists document \(path), which is not in the inputs", at: spec.location))
            }
            documents[path] = document
        }
        // Document-key order: deterministic, and the order clients would list them.
        let paths = documents.keys.sorted { ResourcePath.compare($0, $1) == .less }
        for path in paths {
            do throws(BundleWriterError) {
                try writer.addDocument(documents[path]!, queries: membership[path] ?? [])
            } catch {
                throw .bundle(id: spec.id, error)
            }
        }
        let encoded = writer.encode()

        var hasher = SHA256()
        encoded.forEachRun { hasher.update(data: $0) }
        let sha256 = hasher.finalize().hex

        let gzip: [UInt8]
        do throws(GzipError) {
            let compressor = try ParallelGzipCompressor(level: Int32(gzipLevel))
            var output: [UInt8] = []
            encoded.forEachRun { output += compressor.append($0) }
            output += compressor.finish()
            gzip = output
        } catch {
            throw .data("gzip failed for bundle \"\(spec.id)\": \(error)", location: spec.location)
        }
        let names = spec.queries.map(\.name).sorted { UTF8Order.compare($0, $1) == .less }
        return BuiltBundle(id: spec.id, encoded: encoded, gzip: gzip, sha256: sha256, namedQueries: names)
    }
}
