import FirestoreModel

/// The documents that can still be among a query's results while documents stream past, before
/// all of them are known: without a limit, every match; with one, the best `limit` matches so
/// far in query order (the last `limit` with ``LimitType/last``), cursors applied.
///
/// The results over a whole stream are among the documents kept at its end, and so among the
/// documents kept over any part of it: a task that keeps its part's candidates keeps every
/// result that part holds, and the results over the candidates of all parts are the results
/// over everything (``DocumentStore/evaluate(_:)``).
///
/// Documents are offered with a tag (where the caller keeps them), and an offer says which
/// tagged document, if any, it pushed out.
public struct RunningResults<Tag> {
    /// What an offer did.
    public enum Outcome {
        /// The document is not a result at any limit: out of scope, without an orderBy field,
        /// failing a filter or outside the cursors.
        case notMatching
        /// The document is among the results so far; the document tagged `displacing`, kept
        /// before, no longer is.
        case kept(displacing: Tag?)
        /// The document matches, but `limit` better ones were offered before it.
        case notAmongBest
    }

    private let plan: QueryPlan
    private var best: TopN<(document: Document, tag: Tag)>?

    /// Results of `query` over documents of `database`.
    public init(_ query: Query, database: DatabaseID) {
        let plan = QueryPlan(query, database: database)
        self.plan = plan
        if let limit = query.limit {
            let keepsLast = query.limitType == .last
            best = TopN(capacity: Int(limit)) { lhs, rhs in
                plan.compare(lhs.document, rhs.document) == (keepsLast ? .greater : .less)
            }
        }
    }

    /// The query.
    public var query: Query { plan.query }

    /// Offers `document` (with at least the fields the query reads), tagged `tag`.
    public mutating func offer(_ document: Document, tag: Tag) -> Outcome {
        guard plan.query.matchesPath(document.path), plan.matchesContent(document) else { return .notMatching }
        switch best?.insert((document, tag)) {
        case nil, .added?: return .kept(displacing: nil)
        case .displaced(let displaced)?: return .kept(displacing: displaced.tag)
        case .rejected?: return .notAmongBest
        }
    }
}
