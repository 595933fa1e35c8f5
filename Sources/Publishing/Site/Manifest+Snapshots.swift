/// The server-rendering snapshots in the manifest: `named_queries.<name>.snapshot` and the
/// `documents` map.
extension Manifest {
    /// Records `snapshots`, published beside the bundle `bundle` lists (by its id).
    mutating func addSnapshots(_ snapshots: [BuiltSnapshot], of bundle: String) {
        guard let entry = bundles.first(where: { $0.id == bundle }) else { return }
        for snapshot in snapshots {
            let url = "bundles/\(snapshot.name)"
            switch snapshot.source {
            case .query(let name):
                namedQueries[name]?.snapshot = url
            case .document(let path):
                documents = documents ?? [:]
                // A document several bundles list keeps the first bundle's snapshot.
                if documents?[path.description] == nil {
                    documents?[path.description] = QueryLocation(bundle: bundle, url: entry.url, snapshot: url)
                }
            }
        }
    }

    /// Every snapshot the manifest names, relative to `bundles/` (`snapshots/<file>`).
    var snapshotNames: [String] {
        let urls = (Array(namedQueries.values) + (documents ?? [:]).values).compactMap(\.snapshot)
        return urls.map { $0.hasPrefix("bundles/") ? String($0.dropFirst("bundles/".count)) : $0 }
    }
}
