import Crypto
import FirestoreModel
import Foundation
import PipelineLanguage
import QueryEngine

/// What a build knows, before reading its inputs, of the documents it can ship (its
/// *candidates*): those a named query can return, those a bundle's `documents:` lists, and those
/// published before (a leaver's current version ships again).
///
/// A ``CandidateTracker`` judges each document as it is read. Only candidates are set aside
/// whole and queried; of the others a build keeps the path, times and location (duplicates, the
/// snapshot time, the collections that exist). So a site that ships a small part of a large
/// export holds that part, and a limit query its best `limit` documents, not the export.
///
/// A named query whose values are known before reading
/// (``PipelineLanguage/PipelineConfig/queriesKnownBeforeReading()``) can return a document that
/// matches it and, with a limit, is among the best `limit` read so far; one known only once the
/// inputs are read (a relative time without `snapshot_time:`, a cursor at a document, which is in
/// the query's collection) can return any document in its scope
/// (``QueryEngine/Query/matchesPath(_:)``). Under
/// `duplicates: last-wins` a later version can take the place of one of the best, so a limit
/// query keeps every match.
struct CandidateRules: Sendable {
    /// How a named query judges documents.
    struct Rule: Sendable {
        var query: Query
        /// True when the query's values are known before reading: a document must match it.
        var known: Bool
    }

    let rules: [Rule]
    let database: DatabaseID
    /// True when a known query with a limit keeps only its best `limit` documents
    /// (`duplicates: error`: a document read is never replaced).
    let keepsBest: Bool
    /// Listed by `documents:`.
    private let listed: Set<ResourcePath>
    private let previous: SiteHistory?

    /// The rules of `config` and of what `previous` says was published; nil when every document
    /// is a candidate: a `for_each` makes its bundles' queries from values read in the data (and
    /// may name fields the store takes in from the archive of every document).
    init?(_ config: PipelineConfig, previous: SiteHistory?) throws(BuildError) {
        guard config.fanOuts.isEmpty else { return nil }
        let known: [String: Query]
        do throws(ConfigError) { known = try config.queriesKnownBeforeReading() } catch { throw .config(error) }
        let named = config.bundles.flatMap(\.queries)
        rules = named.map { spec in known[spec.name].map { Rule(query: $0, known: true) } ?? Rule(query: spec.query, known: false) }
        database = config.database
        keepsBest = config.duplicates == .error
        listed = Set(config.bundles.flatMap(\.documents))
        self.previous = previous
    }

    /// True when the document at `path` can be a candidate: in a named query's scope, listed,
    /// or published before.
    func mayHold(_ path: ResourcePath) -> Bool {
        rules.contains { $0.query.matchesPath(path) } || isPinned(path)
    }

    /// True when the document at `path` is a candidate whatever it holds: listed, or published
    /// before.
    func isPinned(_ path: ResourcePath) -> Bool {
        listed.contains(path) || (previous?.bundles.values.contains { $0.current[path] != nil || $0.earlier[path] != nil } ?? false)
    }

    /// SHA-256 of the paths published before, per bundle: a map task and the merge judge alike
    /// only when they read the same previous state.
    var previousDigest: String {
        var hash = SHA256()
        for (id, bundle) in (previous?.bundles ?? [:]).sorted(by: { $0.key < $1.key }) {
            hash.update(data: Data("bundle \(id)\n".utf8))
            for path in bundle.current.paths { hash.update(data: Data("\(path)\n".utf8)) }
            hash.update(data: Data("earlier\n".utf8))
            for path in bundle.earlier.keys.map(\.description).sorted() { hash.update(data: Data("\(path)\n".utf8)) }
        }
        return hash.finalize().hex
    }
}

/// Judges documents against ``CandidateRules`` as they are read, in reading order: each is a
/// candidate or not, and one that is a candidate only as one of a limit query's best so far
/// stops being one when `limit` better ones have been read.
///
/// Documents are told apart by a tag (where the caller keeps them).
struct CandidateTracker {
    /// Nil: every document is a candidate.
    private let rules: CandidateRules?
    /// Per rule of a known query, the documents it can still return.
    private var results: [RunningResults<Int>?]
    /// The documents some limit query holds among its best so far, by tag.
    private var held: [Int: Holding] = [:]

    private struct Holding {
        /// The limit queries holding it.
        var queries: Int
        /// True when it is a candidate for another reason too.
        var otherwise: Bool
    }

    init(_ rules: CandidateRules?) {
        self.rules = rules
        results = (rules?.rules ?? []).map { rule in
            guard rule.known, let rules else { return nil }
            var query = rule.query
            if !rules.keepsBest { query.limit = nil }
            return RunningResults(query, database: rules.database)
        }
    }

    /// Judges `document` (with at least the fields the queries read), tagged `tag`. Returns
    /// whether it is a candidate, and the tags of documents judged before that no longer are.
    mutating func judge(_ document: Document, tag: Int) -> (isCandidate: Bool, dropped: [Int]) {
        guard let rules else { return (true, []) }
        guard rules.mayHold(document.path) else { return (false, []) }
        var otherwise = rules.isPinned(document.path)
        var queries = 0
        var dropped: [Int] = []
        for index in rules.rules.indices {
            guard results[index] != nil else {
                if rules.rules[index].query.matchesPath(document.path) { otherwise = true }
                continue
            }
            guard case .kept(let displaced) = results[index]!.offer(document, tag: tag) else { continue }
            guard results[index]!.query.limit != nil else {
                otherwise = true
                continue
            }
            queries += 1
            if let displaced, release(displaced) { dropped.append(displaced) }
        }
        if queries > 0 { held[tag] = Holding(queries: queries, otherwise: otherwise) }
        return (otherwise || queries > 0, dropped)
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
        return !holding.otherwise
    }
}
