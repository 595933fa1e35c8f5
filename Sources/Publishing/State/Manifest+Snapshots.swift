/// The server-rendering snapshots in the manifest: `named_queries.<name>.snapshot`, the
/// `documents` map, and a spec bundle's `snapshots`.
extension Manifest {
    /// Every snapshot the manifest names, relative to `bundles/` (`snapshots/<file>`).
    var snapshotNames: [String] {
        let urls = (Array(namedQueries.values) + (documents ?? [:]).values).compactMap(\.snapshot)
            + bundles.flatMap { ($0.snapshots ?? [:]).values }
        return urls.map { $0.hasPrefix("bundles/") ? String($0.dropFirst("bundles/".count)) : $0 }
    }
}
