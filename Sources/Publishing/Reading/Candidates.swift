import Crypto
import FirestoreModel
import Foundation
import PipelineLanguage
import QueryEngine

/// What a build knows, before reading its inputs, of the documents it can ship (its
/// *candidates*): those a named query can return, those a bundle's `documents:` lists or a
/// cursor is at, and those published before (a leaver's current version ships again).
///
/// A ``CandidateTracker`` judges each document as it is read. Only candidates are set aside
/// whole and queried; of the others a build keeps the path, times and location (duplicates, the
/// snapshot time, the collections that exist). So a site that ships a small part of a large
/// export holds that part, and a limit query its best `limit` documents, not the export.
///
/// A named query whose values are known before reading
/// (``PipelineLanguage/PipelineConfig/queriesKnownBeforeReading()``) can return a document that
/// matches it and, with a limit, is among the best `limit` read so far; one known only once the
/// inputs are read (a relative time without `snapshot_time:`, a cursor at a document) can return
/// any document in its scope (``QueryEngine/Query/matchesPath(_:)``). Under
/// `duplicates: last-wins` a later version can take the place of one of the best, so a limit
/// query keeps every match.
struct CandidateRules: Sendable {
    /// How a named query judges documents.
    enum Rule: Sendable {
        /// Values known only once the inputs are read: any document in its scope.
        case scope(Query)
        /// Values known before reading, no limit to rank by (none, or `duplicates: last-wins`):
        /// a document that matches it.
        case matches(QueryMatcher)
        /// Values known before reading, with a limit: a document that matches it while it is
        /// among the best `limit` read so far.
        case best(QueryMatcher)
    }

    let rules: [Rule]
    /// The rules' queries and matchers, the matchers with their index in `rules`, as
    /// ``verdict(on:)`` reads them: in place, from arrays of structs, where matching an array of
    /// enums copied each rule's payload, and every reference it holds, for every document judged
    /// (the counts contended by every core at once: 0.6 s of CPU at 1M documents).
    private let scopes: [Query]
    private let matchers: [Matching]
    /// Listed by `documents:`, or a cursor is at them.
    private let listed: Set<ResourcePath>
    private let previous: SiteHistory?

    /// The rules of `config` and of what `previous` says was published; nil when every document
    /// is a candidate: a `for_each` over values read in the data whose template can put a value
    /// in where its documents are (a collection path, `documents:`: ``PipelineLanguage/FanOut/scope``).
    ///
    /// A `for_each` over listed `values:` makes its bundles before reading: they are judged as
    /// any. One over values in the data makes its queries once they are read: any document in
    /// their scopes is a candidate, and so is every document its values are read from.
    ///
    /// The extension's bundle specs are read from the inputs: with `extension:` every document
    /// is a candidate.
    init?(_ config: PipelineConfig, previous: SiteHistory?) throws(BuildError) {
        guard config.extensionConfig == nil else { return nil }
        let known: [String: Query]
        do throws(ConfigError) { known = try config.queriesKnownBeforeReading() } catch { throw .config(error) }
        // Under last-wins a later version can take the place of one of a limit query's best.
        let ranks = config.duplicates == .error
        var rules: [Rule] = config.bundles.flatMap(\.queries).map { spec in
            guard let query = known[spec.name] else { return .scope(spec.query) }
            let matcher = QueryMatcher(query, database: config.database)
            return query.limit != nil && ranks ? .best(matcher) : .matches(matcher)
        }
        // A cursor's document is read for its values (and a collection group's need not be under
        // its parent).
        var listed = config.bundles.flatMap(\.documents) + config.bundles.flatMap(\.queries).flatMap(\.cursorDocuments)
        for fanOut in config.fanOuts where fanOut.dependsOnData {
            guard let scope = fanOut.scope else { return nil }
            rules += scope.queries.map { .scope($0) }
            listed += scope.documents
            switch fanOut.source {
            case .field(_, let collection), .documents(let collection):
                rules.append(.scope(Query(parent: collection.parent, collectionID: collection.lastSegment!)))
            case .values:
                break
            }
        }
        self.rules = rules
        var scopes: [Query] = []
        var matchers: [Matching] = []
        for (index, rule) in rules.enumerated() {
            switch rule {
            case .scope(let query): scopes.append(query)
            case .matches(let matcher): matchers.append(Matching(matcher: matcher, ranks: false, index: index))
            case .best(let matcher): matchers.append(Matching(matcher: matcher, ranks: true, index: index))
            }
        }
        self.scopes = scopes
        self.matchers = matchers
        self.listed = Set(listed)
        self.previous = previous
    }

    /// A rule's matcher: a match is a candidate, or with `ranks` one to rank among the best of
    /// rule `index`.
    private struct Matching: Sendable {
        var matcher: QueryMatcher
        var ranks: Bool
        var index: Int
    }

    /// What the rules say of `document` (whole, or with at least the fields the queries read) on
    /// its own; pure, so it is found for many documents at once on every core.
    func verdict(on document: Document) -> Verdict {
        var verdict = Verdict(certain: isPinned(document.path), ranked: [])
        // By index: each rule is read in place (`for … in` copies each element).
        for index in scopes.indices where scopes[index].matchesPath(document.path) {
            verdict.certain = true
        }
        for index in matchers.indices where matchers[index].matcher.matches(document) {
            if matchers[index].ranks { verdict.ranked.append(matchers[index].index) } else { verdict.certain = true }
        }
        return verdict
    }

    /// True when the document at `path` is a candidate whatever it holds: listed, a cursor's, or
    /// published before.
    private func isPinned(_ path: ResourcePath) -> Bool {
        listed.contains(path) || (previous?.bundles.values.contains { $0.current[path] != nil || $0.earlier[path] != nil } ?? false)
    }

    /// SHA-256 of the paths published before, per bundle (ids and paths in UTF-8 byte order): a
    /// map task and the merge judge alike only when they read the same previous state.
    func previousDigest() -> String {
        let inByteOrder = { (lhs: String, rhs: String) in lhs.utf8.lexicographicallyPrecedes(rhs.utf8) }
        var hash = SHA256()
        for (id, bundle) in (previous?.bundles ?? [:]).sorted(by: { inByteOrder($0.key, $1.key) }) {
            hash.update(data: Data("bundle \(id)\n".utf8))
            for path in bundle.current.paths { hash.update(data: Data("\(path)\n".utf8)) }
            hash.update(data: Data("earlier\n".utf8))
            for path in bundle.earlier.keys.map(\.description).sorted(by: inByteOrder) { hash.update(data: Data("\(path)\n".utf8)) }
        }
        return hash.finalize().hex
    }
}

/// What ``CandidateRules`` say of a document on its own, before it is weighed against the
/// documents read before it (``CandidateTracker``).
struct Verdict: Sendable {
    /// A candidate whatever is read with it: listed, published before, in the scope of a query
    /// known only after reading, or a match of one without a limit to rank by.
    var certain: Bool
    /// The rules of the limit queries it matches: a candidate while among the best of one.
    var ranked: [Int]

    /// True when no rule can make the document a candidate.
    var isNone: Bool { !certain && ranked.isEmpty }

    /// The verdict of `rules` on `document` (without rules every document is a candidate), and
    /// the document as it is weighed (``CandidateTracker/admit(_:_:tag:)``) and kept: with only
    /// `fields`, or none when no rule can make it a candidate.
    static func of(_ document: Document, by rules: CandidateRules?, keeping fields: [FieldPath]) -> (verdict: Verdict, kept: Document) {
        let verdict = rules?.verdict(on: document) ?? Verdict(certain: true, ranked: [])
        var kept = document
        kept.fields = verdict.isNone ? MapValue() : document.fields.keepingOnly(fields)
        return (verdict, kept)
    }
}

/// Weighs documents against ``CandidateRules`` as they are read, in reading order: each is a
/// candidate or not, and one that is a candidate only as one of a limit query's best so far
/// stops being one when `limit` better ones have been read.
///
/// Documents are told apart by a tag (where the caller keeps them).
struct CandidateTracker {
    /// Per rule of a limit query, the best documents so far.
    private var results: [RunningResults<Int>?]
    /// The documents some limit query holds among its best so far, by tag.
    private var held: [Int: Holding] = [:]

    private struct Holding {
        /// The limit queries holding it.
        var queries: Int
        /// True when it is a candidate for another reason too.
        var certain: Bool
    }

    /// A tracker for `rules` (nil: every document is a candidate).
    init(_ rules: CandidateRules?) {
        results = (rules?.rules ?? []).map { rule in
            guard case .best(let matcher) = rule else { return nil }
            return RunningResults(matcher)
        }
    }

    /// Weighs `document` (with at least the fields the queries read), tagged `tag`, of which the
    /// rules said `verdict` (``CandidateRules/verdict(on:)``). Returns whether it is a candidate,
    /// and the tags of documents weighed before that no longer are.
    mutating func admit(_ document: Document, _ verdict: Verdict, tag: Int) -> (isCandidate: Bool, dropped: [Int]) {
        var queries = 0
        var dropped: [Int] = []
        for index in verdict.ranked {
            guard case .kept(let displaced) = results[index]!.rank(document, tag: tag) else { continue }
            queries += 1
            if let displaced, release(displaced) { dropped.append(displaced) }
        }
        if queries > 0 { held[tag] = Holding(queries: queries, certain: verdict.certain) }
        return (verdict.certain || queries > 0, dropped)
    }

    /// One limit query no longer holds `tag`: true when that leaves it no candidate.
    private mutating func release(_ tag: Int) -> Bool {
        guard var holding = held[tag] else { return false }
        holding.queries -= 1
        guard holding.queries == 0 else {
            held[tag] = holding
            return false
        }
        held[tag] = nil
        return !holding.certain
    }
}
