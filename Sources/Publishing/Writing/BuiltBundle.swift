import BundleFormat
import FirestoreModel
import PipelineLanguage
import QueryEngine

/// One bundle, encoded and compressed into files in a scratch directory, named by its content hash.
struct BuiltBundle {
    var id: String
    var files: BundleFiles
    var namedQueries: [String]
    /// The bundle's `createTime`.
    var createTime: Timestamp
    /// Leavers and missing-document markers among its documents (they are no query's results).
    var leavers: Int
    var missing: Int

    /// Lowercase hex SHA-256 of the raw bundle bytes.
    var sha256: String { files.sha256 }
    var byteCount: Int { files.byteCount }
    var gzipByteCount: Int { files.gzipByteCount }
    var documentCount: Int { Int(files.metadata.totalDocuments) }

    /// `<id>.<first 16 hex digits of the SHA-256>.bundle`.
    var fileName: String { "\(id).\(sha256.prefix(16)).bundle" }
    var gzipFileName: String { fileName + ".gz" }

    /// Encodes, hashes and compresses `planned` into `scratchDirectory`, telling `progress` how
    /// far it is. Each document of the plan is published with its fields in `setAside` as `policy`
    /// publishes them.
    static func build(
        _ planned: consuming ShipmentPlan.Bundle, queries: [BundleSelection.NamedQuery], setAside: SetAsideDocuments, policy: FieldPolicy, gzipLevel: Int,
        audience: BundleAudience, scratchDirectory: String, progress: (BuildEvent) -> Void
    ) throws(BuildError) -> BuiltBundle {
        let (id, createTime, leavers, missing) = (planned.id, planned.createTime, planned.leavers, planned.missing)
        var writer: BundleWriter
        do throws(BundleWriterError) {
            writer = try BundleWriter(id: id, snapshotTime: createTime, database: setAside.database, audience: audience)
        } catch {
            throw .bundle(id: id, error)
        }
        for query in queries {
            do throws(BundleWriterError) {
                try writer.addNamedQuery(name: query.name, bundledQuery: query.bundledQuery)
            } catch {
                // The query came from pipeline.yml: point at it, so the user knows what to change.
                throw .config(ConfigError("bundle \"\(id)\": \(error)", at: query.location))
            }
        }
        // The writer holds the entries now: each is moved out of the plan into it, a cheap marker
        // left in its place (iterating the plan's entries copied each, retaining what it holds).
        // Where each document is set aside stays beside them, by its index among those added.
        var slots: [SetAsideDocuments.Slot?] = []
        var entries: [ShipmentPlan.Entry] = []
        swap(&entries, &planned.entries)
        slots.reserveCapacity(entries.count)
        for index in entries.indices {
            var entry = ShipmentPlan.Entry.missing(.root, readTime: createTime)
            swap(&entry, &entries[index])
            do throws(BundleWriterError) {
                switch consume entry {
                case .existing(let document, let queries, let slot, _):
                    try writer.addDocument(document, queries: queries)
                    slots.append(slot)
                case .missing(let path, let readTime):
                    try writer.addMissingDocument(path, readTime: readTime)
                    slots.append(nil)
                }
            } catch {
                throw .bundle(id: id, error)
            }
        }
        // The markers left go before the bundle is encoded and compressed.
        entries = []
        let files = try BundleFiles.write(
            writer, encodedFields: { [slots] (index, document) throws(PublishError) in try setAside.encodedFields(of: document, at: slots[index]!, as: policy) },
            encodedFieldsCount: { [slots] (index, document) throws(PublishError) in try setAside.encodedFieldsCount(of: document, at: slots[index]!, as: policy) },
            into: scratchDirectory, name: id, gzipLevel: gzipLevel, progress: progress)
        let names = queries.map(\.name).sorted { UTF8Order.compare($0, $1) == .less }
        return BuiltBundle(id: id, files: files, namedQueries: names, createTime: createTime, leavers: leavers, missing: missing)
    }
}
