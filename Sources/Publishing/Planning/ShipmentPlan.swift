import FirestoreModel

/// What a build publishes once returning clients are accounted for: per bundle its
/// `createTime` and every document entry, and the state to keep for the next build.
struct ShipmentPlan: Sendable {
    /// One document entry of a bundle.
    enum Entry: Sendable {
        /// A document in its current version, with where it is set aside and the fingerprint it
        /// ships with; `queries` is empty for a listed document or a leaver (a document that left
        /// the bundle and changed since a client may have cached it).
        case existing(Document, queries: [String], slot: SetAsideDocuments.Slot, fingerprint: DocumentFingerprint)
        /// A missing-document marker for a document the bundle shipped before and that was deleted.
        case missing(ResourcePath, readTime: Timestamp)

        /// The document's path.
        var path: ResourcePath {
            switch self {
            case .existing(let document, _, _, _): document.path
            case .missing(let path, _): path
            }
        }
    }

    struct Bundle: Sendable {
        var id: String
        /// Strictly later than the previous `createTime` of this id when the content changed;
        /// the previous one, so the published bytes stay the same, when it did not.
        var createTime: Timestamp
        /// False when the bundle equals the published one but for nothing at all.
        var changed: Bool
        /// In document-key order.
        var entries: [Entry]
        /// Leavers and missing-document markers among `entries`.
        var leavers: Int
        var missing: Int
    }

    /// The `createTime` of the newest change: the site's time once this plan is published.
    var siteTime: Timestamp
    /// In config order.
    var bundles: [Bundle]
    /// The state to keep beside the site once it is published.
    var history: SiteHistory
}
