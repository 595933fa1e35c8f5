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

    /// The plan for `selections` of `inputs`; the documents of its entries are as the store
    /// holds them, with the times they ship with. The selections' documents are moved into it.
    func plan(_ selections: consuming [BundleSelection], inputs: LoadedInputs) throws(BuildError) -> ShipmentPlan {
        do throws(PublishError) {
            return try planning(selections, inputs: inputs)
        } catch {
            throw .publish(error)
        }
    }

    private func planning(_ selections: consuming [BundleSelection], inputs: LoadedInputs) throws(PublishError) -> ShipmentPlan {
        let cutoff = snapshotTime.advanced(bySeconds: -leavers.keep)
        let candidate = max(snapshotTime, previous.map(\.siteTime.nextMicrosecond) ?? floorWithoutHistory)
        var versions = VersionAssignment(newest: previous?.newestVersions() ?? [:], bump: candidate)
        let prepared = try versions.prepare(selections, inputs: inputs)

        var drafts: [Draft] = []
        for index in selections.indices {
            let published = previous?.bundles[selections[index].id]
            let unselected = published.map(selections[index].unselected(in:)) ?? []
            // The selected documents are moved out of the selection into the entries: a copy
            // retains what the document holds and the array of its queries, which all the
            // results of a query share.
            let selected = selections[index].documents
            selections[index].documents = []
            let entries = [ShipmentPlan.Entry](movingFrom: selected) { position, selected in
                let (document, queries) = selected.parts()
                let found = prepared[index][position]
                return .existing(versions.shipped(document, fingerprint: found.fingerprint), queries: queries, slot: found.slot, fingerprint: found.fingerprint)
            }
            var draft = Draft(selection: selections[index], entries: entries)
            var others: [ShipmentPlan.Entry] = []
            for path in unselected {
                let earlier = published!.versions(of: path, since: cutoff)
                if let document = inputs.store.document(at: path) {
                    let slot = try inputs.slot(of: document)
                    let fingerprint = try versions.fingerprint(of: document, at: slot, policy: draft.selection.fieldPolicy, inputs: inputs)
                    let current = versions.shipped(document, fingerprint: fingerprint)
                    guard earlier.contains(where: { $0.differs(from: current.updateTime) }) else { continue }
                    others.append(.existing(current, queries: [], slot: slot, fingerprint: fingerprint))
                    draft.leavers += 1
                } else if earlier.contains(where: { $0.differs(from: nil) }) {
                    others.append(.missing(path, readTime: markerTime(for: path, earlier: earlier, versions: versions, candidate: candidate)))
                    draft.missing += 1
                }
            }
            if !others.isEmpty { draft.insert(others) }
            drafts.append(draft)
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
            history.bundles[bundle.id] = published.succeeded(by: current, createTime: bundle.createTime, contentDigest: digest, cutoff: cutoff)
        }
        // A bundle no longer built keeps its history while clients within the horizon may hold it,
        // so that its id, if it returns, still accounts for them.
        for (id, published) in previous?.bundles ?? [:] where history.bundles[id] == nil {
            if published.paths.contains(where: { !published.versions(of: $0, since: cutoff).isEmpty }) {
                history.bundles[id] = published
            }
        }
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

/// A bundle's entries while they are planned.
private struct Draft {
    var selection: BundleSelection
    /// In key order.
    var entries: [ShipmentPlan.Entry]
    var leavers = 0
    var missing = 0

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

/// The `updateTime` each document ships with: its own, unless that would not tell a client
/// holding an earlier shipped version that the content changed.
private struct VersionAssignment {
    /// The newest version of each document shipped before, with its fingerprint when known.
    let newest: [ResourcePath: (updateTime: Timestamp, fingerprint: DocumentFingerprint?)]
    /// The time a changed document whose own `updateTime` is not newer gets.
    let bump: Timestamp
    /// Fingerprints by path: when a bundle's field policy narrows documents, the first
    /// occurrence's of every selected document (a document in several bundles keeps it), and
    /// those of leavers found since.
    private var fingerprints: [ResourcePath: DocumentFingerprint] = [:]

    init(newest: [ResourcePath: (updateTime: Timestamp, fingerprint: DocumentFingerprint?)], bump: Timestamp) {
        self.newest = newest
        self.bump = bump
    }

    /// Where each document of `selections` (of `inputs`' store) is set aside, and its
    /// fingerprint as its bundle's policy publishes it, found on every core (most fingerprints
    /// were taken as the documents were set aside). When a policy narrows documents, a document
    /// in several bundles keeps the fingerprint of its first occurrence (fingerprinting the
    /// repeats costs less than finding them first).
    mutating func prepare(
        _ selections: [BundleSelection], inputs: LoadedInputs
    ) throws(PublishError) -> [[(slot: LoadedInputs.Slot, fingerprint: DocumentFingerprint)]] {
        var all: [[(slot: LoadedInputs.Slot, fingerprint: DocumentFingerprint)]] = []
        for selection in selections {
            let (documents, policy) = (selection.documents, selection.fieldPolicy)
            let runs = parallelMap(runsOf: 2_048, count: documents.count, threads: Processors.online) { run in
                Result { () throws(PublishError) in
                    // By index: each document read where the selection holds it.
                    try run.map { index throws(PublishError) in
                        let slot = try inputs.slot(of: documents[index].document)
                        return (slot, try inputs.fingerprint(of: documents[index].document, at: slot, as: policy))
                    }
                }
            }
            var prepared: [(slot: LoadedInputs.Slot, fingerprint: DocumentFingerprint)] = []
            prepared.reserveCapacity(documents.count)
            for run in runs { prepared += try run.get() }
            all.append(prepared)
        }
        guard selections.contains(where: { !$0.fieldPolicy.isEmpty }) else { return all }
        for index in selections.indices {
            for position in selections[index].documents.indices {
                let path = selections[index].documents[position].document.path
                if let first = fingerprints[path] {
                    all[index][position].fingerprint = first
                } else {
                    fingerprints[path] = all[index][position].fingerprint
                }
            }
        }
        return all
    }

    /// The fingerprint `document` (of `inputs`' store, set aside at `slot`), not selected in a
    /// bundle that publishes it as `policy` says, ships with there: a leaver's.
    mutating func fingerprint(
        of document: Document, at slot: LoadedInputs.Slot, policy: FieldPolicy, inputs: LoadedInputs
    ) throws(PublishError) -> DocumentFingerprint {
        if let known = fingerprints[document.path] { return known }
        let fingerprint = try inputs.fingerprint(of: document, at: slot, as: policy)
        fingerprints[document.path] = fingerprint
        return fingerprint
    }

    func newestShipped(_ path: ResourcePath) -> Timestamp? { newest[path]?.updateTime }

    /// `document` with the `updateTime` it ships with, given the fingerprint it ships with.
    func shipped(_ document: consuming Document, fingerprint: DocumentFingerprint) -> Document {
        guard let known = newest[document.path], let own = document.updateTime else { return document }
        var shipped = consume document
        if known.fingerprint == fingerprint {
            shipped.updateTime = known.updateTime
        } else if own > known.updateTime || (own == known.updateTime && known.fingerprint == nil) {
            shipped.updateTime = own
        } else {
            shipped.updateTime = bump
        }
        return shipped
    }
}
