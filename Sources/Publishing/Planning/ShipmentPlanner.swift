import FirestoreModel
import ParallelWork
import PipelineLanguage
import QueryEngine

/// Decides what each bundle carries and when, so that a client which loaded any build within
/// the horizon and then loads this one gets, from `namedQuery` over its whole cache, exactly
/// what a client loading only this build gets (README, "Returning clients"; design.md).
///
/// The rules, from the SDKs' load logic (bundle-format.md §7):
/// - A client skips a bundle whose `createTime` is not newer than the one it cached for the id,
///   so a changed bundle gets a `createTime` strictly later than every earlier publish: the
///   snapshot time, or the site's previous time plus 1 µs when that is later. An unchanged
///   bundle keeps its time, hence its bytes.
/// - A client replaces a cached document only with a newer version, so content shipped before
///   under the same or a later `updateTime` gets the new site time as its `updateTime`; content
///   already shipped keeps the version it was shipped with.
/// - A client runs named queries over its whole cache, so a document the bundle shipped within
///   the horizon that is no longer selected ships again when it changed since: its current
///   version with no query membership (a leaver), or a missing-document marker when it was
///   deleted, whose read time is newer than every version of it any bundle shipped.
struct ShipmentPlanner {
    /// The state of what was published before, if known.
    var previous: SiteHistory?
    /// The build's snapshot time T.
    var snapshotTime: Timestamp
    var leavers: LeaverPolicy
    /// The earliest `createTime` a changed bundle may take when there is no previous state: the
    /// snapshot time for a new site, the wall clock when earlier builds are unknown.
    var floorWithoutHistory: Timestamp

    /// The plan for `selections` of `store`, whose documents are in `setAside` whole; the documents of its entries are as the store
    /// holds them, with the times they ship with. The selections' documents are moved into it.
    func plan(_ selections: consuming [BundleSelection], store: DocumentStore, setAside: SetAsideDocuments) throws(BuildError) -> ShipmentPlan {
        do throws(PublishError) {
            return try planning(selections, store: store, setAside: setAside)
        } catch {
            throw .publish(error)
        }
    }

    private func planning(_ selections: consuming [BundleSelection], store: DocumentStore, setAside: SetAsideDocuments) throws(PublishError) -> ShipmentPlan {
        let cutoff = snapshotTime.advanced(bySeconds: -leavers.keep)
        let candidate = max(snapshotTime, previous.map(\.siteTime.nextMicrosecond) ?? floorWithoutHistory)
        var versions = VersionAssignment(newest: previous?.newestVersions() ?? [:], bump: candidate)
        let prepared = try versions.prepare(selections, setAside: setAside)

        let servedUntil = previous?.siteTime
        let database = store.database
        let site = SiteQueries(selections, database: database)
        // What each bundle published and no longer selects, found while the selections still hold
        // their documents.
        var unselected: [[ResourcePath]] = []
        for index in selections.indices {
            unselected.append(previous?.bundles[selections[index].id].map(selections[index].unselected(in:)) ?? [])
        }
        // The documents some version of which a returning app may hold from some bundle and that
        // may differ from their current one: the ledger's candidates, checked against every bundle.
        var candidates = Set<ResourcePath>()
        if let previous {
            for (id, published) in previous.bundles {
                if let index = selections.firstIndex(where: { $0.id == id }) {
                    candidates.formUnion(unselected[index])
                } else {
                    candidates.formUnion(published.paths)
                }
                candidates.formUnion(published.earlier.keys)
            }
        }

        var drafts: [Draft] = []
        for index in selections.indices {
            // The selected documents are moved out of the selection into the entries: a copy
            // retains what the document holds and the array of its queries, which all the
            // results of a query share.
            let selected = selections[index].documents
            selections[index].documents = []
            let entries = [ShipmentPlan.Entry](movingFrom: selected) { position, selected in
                let (document, queries) = selected.parts()
                let found = prepared[index][position]
                let shipped = versions.shipped(document, fingerprint: found.fingerprint)
                if let known = versions.newest[shipped.path], known.updateTime != shipped.updateTime { candidates.insert(shipped.path) }
                return .existing(shipped, queries: queries, slot: found.slot, fingerprint: found.fingerprint)
            }
            drafts.append(Draft(selection: selections[index], entries: entries))
        }

        // Every version of each candidate that any bundle shipped within the horizon.
        var shippedVersions: [ResourcePath: [EarlierVersion]] = [:]
        if let previous, !candidates.isEmpty {
            for path in candidates {
                var all: [EarlierVersion] = []
                for (id, published) in previous.bundles {
                    let built = selections.contains { $0.id == id }
                    all += published.versions(of: path, since: cutoff, servedUntil: built ? servedUntil : nil)
                }
                shippedVersions[path] = all
            }
        }

        for index in drafts.indices {
            var draft = drafts[index]
            drafts[index].entries = []
            let published = previous?.bundles[draft.selection.id]
            var others: [ShipmentPlan.Entry] = []
            var added = Set<ResourcePath>()
            func current(_ document: Document) throws(PublishError) -> (Document, SetAsideDocuments.Slot, DocumentFingerprint) {
                let slot = try setAside.slot(of: document)
                let fingerprint = try versions.fingerprint(of: document, at: slot, policy: draft.selection.fieldPolicy, setAside: setAside)
                return (versions.shipped(document, fingerprint: fingerprint), slot, fingerprint)
            }
            // Leavers: what this bundle shipped and no longer selects, in a version that differs.
            for path in unselected[index] {
                let earlier = published!.versions(of: path, since: cutoff, servedUntil: servedUntil)
                if let document = store.document(at: path) {
                    let (shipped, slot, fingerprint) = try current(document)
                    guard earlier.contains(where: { $0.differs(from: shipped.updateTime) }) else { continue }
                    others.append(.existing(shipped, queries: [], slot: slot, fingerprint: fingerprint))
                    draft.leavers += 1
                } else if earlier.contains(where: { $0.differs(from: nil) }) {
                    others.append(.missing(path, readTime: markerTime(for: path, earlier: earlier, versions: versions, candidate: candidate)))
                    draft.missing += 1
                }
                added.insert(path)
            }
            // The ledger: a version any other bundle shipped within the horizon that differs from
            // the current one and could show in one of this bundle's named queries.
            var boundaries = Boundaries(queries: site.queries[index], database: database)
            for path in candidates where !added.contains(path) && site.inScope(path, of: index) && !draft.selects(path) {
                let document = store.document(at: path)
                let shipped = try document.map { document throws(PublishError) in try current(document) }
                let stale = (shippedVersions[path] ?? []).filter { $0.differs(from: shipped?.0.updateTime) }
                guard !stale.isEmpty else { continue }
                let couldShow = stale.contains { version in
                    guard case .existing(let updateTime) = version.kind else { return false }
                    let content = updateTime.flatMap { time in previous?.contents[path]?.first { $0.updateTime == time } }
                    return boundaries.couldShow(path, content: content, entries: draft.entries)
                }
                guard couldShow else { continue }
                if let (document, slot, fingerprint) = shipped {
                    others.append(.existing(document, queries: [], slot: slot, fingerprint: fingerprint))
                    draft.leavers += 1
                } else {
                    let own = published?.versions(of: path, since: cutoff, servedUntil: servedUntil) ?? []
                    others.append(.missing(path, readTime: markerTime(for: path, earlier: own, versions: versions, candidate: candidate)))
                    draft.missing += 1
                }
            }
            if !others.isEmpty { draft.insert(others) }
            drafts[index] = draft
        }

        var bundles: [ShipmentPlan.Bundle] = []
        var histories: [String: (current: ShippedDocuments, digest: String)] = [:]
        for index in drafts.indices {
            let draft = drafts[index]
            // The plan takes the draft's entries over, rather than a copy of them.
            drafts[index].entries = []
            var digest = ContentDigest()
            for query in draft.selection.namedQueries { digest.addNamedQuery(name: query.name, bundledQuery: query.bundledQuery) }
            // The entries' lists are written on every core, and hashed in order.
            let entries = draft.entries
            for lists in parallelMap(runsOf: 4_096, count: entries.count, threads: Processors.online, { run in
                var lists = ContentDigest.Lists()
                for position in run {
                    switch entries[position] {
                    case .existing(let document, let queries, _, let fingerprint):
                        lists.appendExisting(document.path, updateTime: document.updateTime!, fingerprint: fingerprint, queries: queries)
                    case .missing(let path, let readTime):
                        lists.appendMissing(path, readTime: readTime)
                    }
                }
                return lists
            }) {
                digest.add(lists)
            }
            var current: [ShippedDocuments.Element] = []
            current.reserveCapacity(entries.count)
            for position in entries.indices {
                switch entries[position] {
                case .existing(let document, _, _, let fingerprint):
                    current.append((document.path, .existing(updateTime: document.updateTime!, fingerprint: fingerprint)))
                case .missing(let path, let readTime):
                    current.append((path, .missing(readTime: readTime)))
                }
            }
            let contentDigest = digest.finalize()
            let published = previous?.bundles[draft.selection.id]
            let changed = published?.contentDigest != contentDigest
            histories[draft.selection.id] = (ShippedDocuments(inKeyOrder: current), contentDigest)
            bundles.append(ShipmentPlan.Bundle(
                id: draft.selection.id, createTime: published.map(\.createTime) ?? candidate, changed: changed,
                entries: draft.entries, leavers: draft.leavers, missing: draft.missing))
        }

        let siteTime = previous.flatMap { previous in bundles.contains(where: \.changed) ? nil : previous.siteTime } ?? candidate
        var history = SiteHistory(siteTime: siteTime, manifestSHA256: nil, bundles: [:])
        for index in bundles.indices where bundles[index].changed {
            bundles[index].createTime = siteTime
        }
        for bundle in bundles {
            let (current, digest) = histories[bundle.id]!
            guard bundle.changed else {
                history.bundles[bundle.id] = previous!.bundles[bundle.id]!
                continue
            }
            let published = previous?.bundles[bundle.id] ?? BundleHistory(createTime: .earliest, contentDigest: "", current: [:], earlier: [:])
            history.bundles[bundle.id] = published.succeeded(by: current, createTime: bundle.createTime, contentDigest: digest, cutoff: cutoff, servedUntil: servedUntil)
        }
        // A bundle no longer built keeps its history while clients within the horizon may hold it,
        // so that its id, if it returns, still accounts for them.
        for (id, published) in previous?.bundles ?? [:] where history.bundles[id] == nil {
            if published.paths.contains(where: { !published.versions(of: $0, since: cutoff).isEmpty }) {
                history.bundles[id] = published
            }
        }
        history.contents = site.contents(of: bundles, history: history, previous: previous?.contents ?? [:])
        return ShipmentPlan(siteTime: siteTime, bundles: bundles, history: history)
    }

    /// A missing-document marker's read time: the one this bundle published before, while it is
    /// still newer than every version of the document any bundle shipped; otherwise `candidate`.
    private func markerTime(for path: ResourcePath, earlier: [EarlierVersion], versions: VersionAssignment, candidate: Timestamp) -> Timestamp {
        let published = earlier.compactMap { version -> Timestamp? in
            if case .missing(let readTime) = version.kind { return readTime }
            return nil
        }.max()
        if let published, published > (versions.newestShipped(path) ?? .earliest) { return published }
        return candidate
    }
}

/// Whether a version of a document could show in a bundle's named queries, given their results
/// today (``ResultBoundary``), found for each query on first use.
private struct Boundaries {
    let queries: [SiteQueries.Named]
    let database: DatabaseID
    private var found: [Int: ResultBoundary] = [:]

    init(queries: [SiteQueries.Named], database: DatabaseID) {
        self.queries = queries
        self.database = database
    }

    /// True when the version of `path` whose ledger entry is `content` (nil: unknown) could show
    /// in one of the queries, whose results are the `entries` that name them.
    mutating func couldShow(_ path: ResourcePath, content: ShippedContent?, entries: [ShipmentPlan.Entry]) -> Bool {
        for (index, named) in queries.enumerated() where named.query.matchesPath(path) {
            guard let content, content.tells(named.fieldsRead) else { return true }
            if found[index] == nil {
                let results = entries.compactMap { entry -> Document? in
                    guard case .existing(let document, let queries, _, _) = entry, queries.contains(named.name) else { return nil }
                    return document
                }
                found[index] = ResultBoundary(query: named.query, database: database, results: results)
            }
            if found[index]!.couldShow(content.document(at: path)) { return true }
        }
        return false
    }
}

/// A bundle's entries while they are planned.
private struct Draft {
    var selection: BundleSelection
    /// In key order.
    var entries: [ShipmentPlan.Entry]
    var leavers = 0
    var missing = 0

    /// True when `path` is among the entries (before leavers are inserted: the selected ones).
    func selects(_ path: ResourcePath) -> Bool {
        var (low, high) = (0, entries.count)
        while low < high {
            let middle = (low + high) / 2
            if ResourcePath.compare(entries[middle].path, path) == .less { low = middle + 1 } else { high = middle }
        }
        return entries[low...].prefix { ResourcePath.compare($0.path, path) == .equal }.contains { $0.path == path }
    }

    /// Adds leavers and markers, found after the selection, in key order: merged in rather than
    /// sorted with it, so that a hundred thousand entries are not sorted again. A path that
    /// orders as a selected one (numeric ids order by value) comes after it.
    mutating func insert(_ others: [ShipmentPlan.Entry]) {
        let others = others.sorted(byPath: \.path)
        var entries: [ShipmentPlan.Entry] = []
        entries.reserveCapacity(self.entries.count + others.count)
        var next = 0
        for other in others {
            while next < self.entries.count, ResourcePath.compare(self.entries[next].path, other.path) != .greater {
                entries.append(self.entries[next])
                next += 1
            }
            entries.append(other)
        }
        entries += self.entries[next...]
        self.entries = entries
    }
}
