import FirestoreModel

/// What one bundle id has published, as far as returning clients are concerned: its current
/// `createTime` and content, every document it carries now, and the earlier versions that
/// clients within the horizon may still hold.
struct BundleHistory: Sendable, Equatable {
    /// The published bundle's `createTime` (= its read times).
    var createTime: Timestamp
    /// ``ContentDigest`` of the published bundle: equal digests mean equal bundles but for times.
    var contentDigest: String
    /// Every document the published bundle carries (results, listed documents, leavers, markers).
    var current: ShippedDocuments
    /// Versions published before the current ones, per document.
    var earlier: [ResourcePath: [EarlierVersion]]

    /// Every version of `path` this bundle published within the horizon (`until` ≥ `cutoff`),
    /// current first. The current one was served until `servedUntil` (the previous site time,
    /// for a bundle the site still publishes: an app may have loaded it at any build since it was
    /// dated), else until the bundle's `createTime`.
    func versions(of path: ResourcePath, since cutoff: Timestamp, servedUntil: Timestamp? = nil) -> [EarlierVersion] {
        let until = max(createTime, servedUntil ?? createTime)
        let now: [EarlierVersion] = current[path].map { version in
            switch version {
            case .existing(let updateTime, _): [EarlierVersion(kind: .existing(updateTime: updateTime), until: until)]
            case .missing(let readTime): [EarlierVersion(kind: .missing(readTime: readTime), until: until)]
            }
        } ?? []
        return (now + (earlier[path] ?? [])).filter { $0.until >= cutoff }
    }

    /// Every document this bundle published, current or earlier.
    var paths: Set<ResourcePath> { Set(current.paths).union(earlier.keys) }

    /// The history once a bundle with `current` is published at `createTime`: what this one
    /// carried now becomes earlier, versions equal to their document's new one are dropped (a
    /// client holding them is up to date), and so is everything older than `cutoff`.
    func succeeded(by current: ShippedDocuments, createTime: Timestamp, contentDigest: String, cutoff: Timestamp, servedUntil: Timestamp? = nil) -> BundleHistory {
        var earlier: [ResourcePath: [EarlierVersion]] = [:]
        for path in paths {
            let kept = versions(of: path, since: cutoff, servedUntil: servedUntil).filter { version in
                switch (version.kind, current[path]) {
                case (.existing(let old), .existing(let new, _)?): old != new
                case (.missing, .missing?): false
                default: true
                }
            }
            if !kept.isEmpty { earlier[path] = kept }
        }
        return BundleHistory(createTime: createTime, contentDigest: contentDigest, current: current, earlier: earlier)
    }
}
