import FirestoreModel

/// A query ready to test many documents: whether each is a result before the limit is applied
/// (JS `queryMatches`, ``Query/matches(_:in:)``), with its orderBys normalized once.
public struct QueryMatcher: Sendable {
    let plan: QueryPlan

    /// Tests documents of `database` against `query`.
    public init(_ query: Query, database: DatabaseID) {
        plan = QueryPlan(query, database: database)
    }

    /// The query.
    public var query: Query { plan.query }

    /// True when `document` (with at least the fields the query reads) is in the query's scope,
    /// has every orderBy field, passes the filters and lies within the cursors.
    public func matches(_ document: Document) -> Bool {
        plan.query.matchesPath(document.path) && plan.matchesContent(document)
    }
}

/// The documents that can still be among a query's results while the documents that match it
/// (``QueryMatcher/matches(_:)``) stream past, before all of them are known: without a limit,
/// every one; with one, the best `limit` so far in query order (the last `limit` with
/// ``LimitType/last``).
///
/// The results over a whole stream are among the documents kept at its end, and so among the
/// documents kept over any part of it: a task that keeps its part's candidates keeps every
/// result that part holds, and the results over the candidates of all parts are the results
/// over everything (``DocumentStore/evaluate(_:)``).
///
/// Documents are ranked with a tag (where the caller keeps them), and a ranking says which
/// tagged document, if any, it pushed out.
public struct RunningResults<Tag> {
    /// What a ranking did.
    public enum Outcome {
        /// The document is among the results so far; the document tagged `displacing`, kept
        /// before, no longer is.
        case kept(displacing: Tag?)
        /// `limit` better documents were ranked before it.
        case notAmongBest
    }

    private var best: TopN<(document: Document, tag: Tag)>?

    /// Results of the query `matcher` tests documents against.
    public init(_ matcher: QueryMatcher) {
        if let limit = matcher.query.limit {
            best = TopN(capacity: Int(limit)) { lhs, rhs in matcher.plan.keepsBefore(lhs.document, rhs.document) }
        }
    }

    /// Ranks `document`, which matches the query (with at least the fields it reads), tagged `tag`.
    public mutating func rank(_ document: Document, tag: Tag) -> Outcome {
        switch best?.insert((document, tag)) {
        case nil, .added?: return .kept(displacing: nil)
        case .displaced(let displaced)?: return .kept(displacing: displaced.tag)
        case .rejected?: return .notAmongBest
        }
    }
}
