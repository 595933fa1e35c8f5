import FirestoreModel
import PipelineLanguage
import QueryEngine

/// Where the documents a build may ship can be, known before its inputs are read: in the scope of
/// a named query (``QueryEngine/Query/matchesPath(_:)``, as the store scans for it), listed by a
/// bundle's `documents:`, or published before (a leaver's current version ships again).
///
/// Only these documents are set aside whole (encoded and scanned as a bundle carries them): a
/// site that ships a small part of a large export encodes that part, not the export.
struct ShippableScope: Sendable {
    private let queries: [Query]
    private let listed: Set<ResourcePath>
    private let previous: SiteHistory?

    /// The scope of `config`'s bundles and of what `previous` says was published; nil when any
    /// document may ship: a `for_each` makes its bundles' queries from values read in the data
    /// (and may name fields the store takes in from the archive of every document).
    init?(_ config: PipelineConfig, previous: SiteHistory?) {
        guard config.fanOuts.isEmpty else { return nil }
        queries = config.bundles.flatMap { $0.queries.map(\.query) }
        listed = Set(config.bundles.flatMap(\.documents))
        self.previous = previous
    }

    /// True when the document at `path` may ship.
    func contains(_ path: ResourcePath) -> Bool {
        queries.contains { $0.matchesPath(path) } || listed.contains(path)
            || (previous?.bundles.values.contains { $0.current[path] != nil || $0.earlier[path] != nil } ?? false)
    }
}
