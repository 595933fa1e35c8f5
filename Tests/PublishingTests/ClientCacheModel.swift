import BundleFormat
import FirestoreModel
import JSONCore
import QueryEngine

/// A Firebase SDK's local cache as bundles load into it, by the SDKs' own rules (JS
/// `localStoreHasNewerBundle`, `populateDocumentChangeBuffer`, `localStoreSaveNamedQuery`;
/// Android and iOS `LocalStore` do the same; bundle-format.md §7):
/// - a bundle whose `createTime` is not newer than the one cached for its id is skipped whole;
/// - a bundled document replaces the cached one only when its version is newer (an existing
///   document's version is its `updateTime`, a missing one's its `documentMetadata.readTime`);
/// - a named query's definition replaces the cached one;
/// - `namedQuery` + `getDocsFromCache` runs the query over every cached existing document.
///
/// `scripts/check_returning_clients.py` compares this model with the real JS SDK.
struct ClientCacheModel {
    let database: DatabaseID
    private var bundleTimes: [String: Timestamp] = [:]
    private var documents: [ResourcePath: (version: Timestamp, document: Document?)] = [:]
    private var queries: [String: Query] = [:]

    init(database: DatabaseID) {
        self.database = database
    }

    /// Loads a bundle; returns false when the SDK would skip it as not newer than the cached one.
    @discardableResult
    mutating func load(_ bundle: BundleContents) -> Bool {
        if let cached = bundleTimes[bundle.metadata.id], cached >= bundle.metadata.createTime { return false }
        for entry in bundle.documents {
            let path = entry.metadata.name.path
            let version = entry.document?.updateTime ?? entry.metadata.readTime
            if let cached = documents[path], !(version > cached.version) { continue }
            documents[path] = (version, entry.document)
        }
        for named in bundle.namedQueries {
            queries[named.name] = try! BundledQuery(jsonBytes: named.bundledQuery.bytes).query
        }
        bundleTimes[bundle.metadata.id] = bundle.metadata.createTime
        return true
    }

    /// Every named query this cache knows, with what `getDocsFromCache(namedQuery(name))`
    /// returns: each result's path and fields, in query order.
    func results() -> [String: [String]] {
        var store = DocumentStore(database: database)
        for (_, cached) in documents {
            if let document = cached.document { store.insert(document) }
        }
        return queries.mapValues { query in
            store.evaluate(query).map { document in
                var fields = JSONWriter()
                document.fields.encodeFields(into: &fields)
                return "\(document.path) \(String(decoding: fields.bytes, as: UTF8.self))"
            }
        }
    }
}
