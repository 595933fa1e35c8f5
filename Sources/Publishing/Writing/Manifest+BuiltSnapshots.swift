/// The server-rendering snapshots written into the manifest (``Manifest`` reads them back:
/// `Manifest+Snapshots`).
extension Manifest {
    /// Records `snapshots`, published beside the bundle `bundle` lists (by its id).
    mutating func addSnapshots(_ snapshots: [BuiltSnapshot], of bundle: String) {
        guard let index = bundles.firstIndex(where: { $0.id == bundle }) else { return }
        let entry = bundles[index]
        for snapshot in snapshots {
            let url = "bundles/\(snapshot.name)"
            switch snapshot.source {
            case .query(let name):
                if namedQueries[name]?.bundle == bundle { namedQueries[name]?.snapshot = url }
                if entry.spec != nil { bundles[index].snapshots = (entry.snapshots ?? [:]).merging([name: url]) { $1 } }
            case .document(let path):
                documents = documents ?? [:]
                // A document several bundles list keeps the first bundle's snapshot.
                if documents?[path.description] == nil {
                    documents?[path.description] = QueryLocation(bundle: bundle, url: entry.url, snapshot: url)
                }
            }
        }
    }
}
