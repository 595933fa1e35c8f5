import Foundation

/// The files the manifest references, and its server-rendering snapshots: `named_queries.<name>.snapshot`, the
/// `documents` map, and a spec bundle's `snapshots`.
extension Manifest {
    /// Every file under `bundles/` the manifest references, by name relative to it: each bundle's
    /// raw and gzip files and every snapshot (what retention never deletes).
    var referencedFiles: Set<String> {
        Set(bundles.flatMap { [$0.url, $0.gzipURL] }.map { ($0 as NSString).lastPathComponent }).union(snapshotNames)
    }

    /// Every snapshot the manifest names, relative to `bundles/` (`snapshots/<file>`).
    var snapshotNames: [String] {
        let urls = (Array(namedQueries.values) + (documents ?? [:]).values).compactMap(\.snapshot)
            + bundles.flatMap { ($0.snapshots ?? [:]).values }
        return urls.map { $0.hasPrefix("bundles/") ? String($0.dropFirst("bundles/".count)) : $0 }
    }
}
