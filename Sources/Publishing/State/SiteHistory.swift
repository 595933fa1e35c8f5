import FirestoreModel

/// The state a site keeps for returning clients, in `<output>/.bundlepress-state.json`: the site
/// time (the `createTime` of the newest published change) and, per bundle id, its
/// ``BundleHistory``. It is written with the manifest it belongs to (``SiteHistoryStore``) and
/// never served: `bundlepress serve` hides dot-files and the header files keep them out of deploys.
public struct SiteHistory: Sendable, Equatable {
    /// The state file's name in the output directory.
    public static let fileName = ".bundlepress-state.json"
    /// Bumped when a field changes meaning; an unknown version is read as no state.
    static let schemaVersion = 1

    /// The `createTime` of the newest change published: every later change is published after it.
    var siteTime: Timestamp
    /// SHA-256 of the manifest this state was written with (nil when derived from a deployed
    /// site), to tell a state written just before a killed build renamed its manifest.
    var manifestSHA256: String?
    /// By bundle id, including bundles no longer built whose history is within the horizon
    /// (their id may return).
    var bundles: [String: BundleHistory]
    /// The site-wide ledger: for every version of a document that a bundle carries or carried
    /// within the horizon (as ``bundles`` lists them), the fields the named queries read, so that
    /// every bundle can tell whether an app's cached copy of it, from any bundle, could show in
    /// its queries. A version not listed is unknown: it could show anywhere its path is in scope.
    var contents: [ResourcePath: [ShippedContent]] = [:]

    /// The newest version of each document that any bundle published, current or earlier:
    /// a content change must come with a later `updateTime` than this, and a missing-document
    /// marker must be newer than it.
    func newestVersions() -> [ResourcePath: (updateTime: Timestamp, fingerprint: DocumentFingerprint?)] {
        var newest: [ResourcePath: (updateTime: Timestamp, fingerprint: DocumentFingerprint?)] = [:]
        func note(_ path: ResourcePath, _ updateTime: Timestamp, _ fingerprint: DocumentFingerprint?) {
            if let known = newest[path], known.updateTime > updateTime || (known.updateTime == updateTime && known.fingerprint != nil) { return }
            newest[path] = (updateTime, fingerprint)
        }
        for history in bundles.values {
            for (path, version) in history.current {
                if case .existing(let updateTime, let fingerprint) = version { note(path, updateTime, fingerprint) }
            }
            for (path, versions) in history.earlier {
                for case .existing(let updateTime?) in versions.map(\.kind) { note(path, updateTime, nil) }
            }
        }
        return newest
    }
}
