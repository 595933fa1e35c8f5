import BundleFormat
import FirestoreModel
import PipelineLanguage
import QueryEngine

/// One bundle, encoded and compressed into files in a scratch directory, named by its content hash.
struct BuiltBundle {
    var id: String
    var files: BundleFiles
    var namedQueries: [String]

    /// Lowercase hex SHA-256 of the raw bundle bytes.
    var sha256: String { files.sha256 }
    var byteCount: Int { files.byteCount }
    var gzipByteCount: Int { files.gzipByteCount }
    var documentCount: Int { Int(files.metadata.totalDocuments) }

    /// `<id>.<first 16 hex digits of the SHA-256>.bundle`.
    var fileName: String { "\(id).\(sha256.prefix(16)).bundle" }
    var gzipFileName: String { fileName + ".gz" }

    /// The raw and gzip files, to publish under their content-hashed names.
    var siteFiles: [SitePublisher.File] {
        [
            SitePublisher.File(name: fileName, content: .scratchFile(path: files.rawPath, size: files.byteCount)),
            SitePublisher.File(name: gzipFileName, content: .scratchFile(path: files.gzipPath, size: files.gzipByteCount)),
        ]
    }

    /// Runs the bundle's named queries over `store`, adds their results and the explicit
    /// documents, and encodes, hashes and compresses the bundle into `scratchDirectory`.
    static func build(_ spec: BundleSpec, store: DocumentStore, snapshotTime: Timestamp, gzipLevel: Int, audience: BundleAudience, scratchDirectory: String) throws(BuildError) -> BuiltBundle {
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
        let files = try BundleFiles.write(writer, into: scratchDirectory, name: spec.id, gzipLevel: gzipLevel)
        let names = spec.queries.map(\.name).sorted { UTF8Order.compare($0, $1) == .less }
        return BuiltBundle(id: spec.id, files: files, namedQueries: names)
    }
}
