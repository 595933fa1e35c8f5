import FirestoreModel
import ParallelWork
import PipelineLanguage
import QueryEngine

/// The named queries of every bundle of the build, decoded once, with the fields each reads.
struct SiteQueries {
    struct Named {
        var name: String
        var query: Query
        var fieldsRead: Set<String>
    }

    /// By bundle, in config order.
    let queries: [[Named]]

    init(_ selections: borrowing [BundleSelection], database: DatabaseID) {
        var queries: [[Named]] = []
        for index in selections.indices {
            queries.append(selections[index].namedQueries.compactMap { named in
                // The planner's own encoding of a query it validated: it decodes.
                guard let query = try? BundledQuery(jsonBytes: named.bundledQuery).query else { return nil }
                return Named(name: named.name, query: query, fieldsRead: query.topLevelFieldsRead)
            })
        }
        self.queries = queries
    }

    /// True when a document at `path` is in the scope of a named query of bundle `index`.
    func inScope(_ path: ResourcePath, of index: Int) -> Bool {
        queries[index].contains { $0.query.matchesPath(path) }
    }

    /// The top-level fields read by every query of the site whose scope holds documents of
    /// `collection`, in UTF-8 order.
    func names(in collection: ResourcePath) -> [String] {
        var names: Set<String> = []
        let probe = collection.appending("_")
        for bundle in queries {
            for named in bundle where named.query.matchesPath(probe) { names.formUnion(named.fieldsRead) }
        }
        return names.sorted { UTF8Order.compare($0, $1) == .less }
    }

    /// The ledger for the state of `bundles` (``SiteHistory/contents``): the projection of every
    /// existing version they carry, and the ones `previous` kept of versions `history` still
    /// lists as earlier (or carries in a bundle no longer built). A version whose collection no
    /// query reads a field of is left out: nothing about it is unknown to today's queries.
    func contents(of bundles: [ShipmentPlan.Bundle], history: SiteHistory, previous: [ResourcePath: [ShippedContent]]) -> [ResourcePath: [ShippedContent]] {
        var contents = [ResourcePath: [ShippedContent]](minimumCapacity: bundles.reduce(0) { $0 + $1.entries.count })
        func add(_ path: ResourcePath, _ content: ShippedContent) {
            // One look-up of the path, its versions changed in place.
            func append(to versions: inout [ShippedContent]) {
                if !versions.contains(where: { $0.updateTime == content.updateTime }) { versions.append(content) }
            }
            append(to: &contents[path, default: []])
        }
        for bundle in bundles {
            let entries = bundle.entries
            for run in parallelMap(runsOf: 4_096, count: entries.count, threads: Processors.online, { run in
                var found: [(ResourcePath, ShippedContent)] = []
                // Documents in key order alternate between a collection and its subcollections.
                var known: [ResourcePath: [String]] = [:]
                for position in run {
                    guard case .existing(let document, _, _, _) = entries[position] else { continue }
                    let collection = document.path.parent
                    let names: [String]
                    if let found = known[collection] {
                        names = found
                    } else {
                        names = self.names(in: collection)
                        known[collection] = names
                    }
                    guard !names.isEmpty else { continue }
                    found.append((document.path, ShippedContent(document, updateTime: document.updateTime!, names: names)))
                }
                return found
            }) {
                for (path, content) in run { add(path, content) }
            }
        }
        func carry(_ path: ResourcePath, _ updateTime: Timestamp) {
            if let kept = previous[path]?.first(where: { $0.updateTime == updateTime }) { add(path, kept) }
        }
        let built = Set(bundles.map(\.id))
        for (id, bundle) in history.bundles {
            for (path, versions) in bundle.earlier {
                for version in versions {
                    if case .existing(let updateTime?) = version.kind { carry(path, updateTime) }
                }
            }
            guard !built.contains(id) else { continue }
            for (path, version) in bundle.current {
                if case .existing(let updateTime, _) = version { carry(path, updateTime) }
            }
        }
        return contents
    }
}
