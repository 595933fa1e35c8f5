import FirestoreModel

/// Whether a document that is not among a query's results could still show among them in a
/// client cache that holds every result: it matches the query (scope, orderBy fields, filters,
/// cursors) and, when the results fill the limit, it ranks before the last one kept (the
/// first in query order with `limit_to_last`). A document that cannot show never changes the
/// results, whatever else the cache holds beside them.
public struct ResultBoundary: Sendable {
    let plan: QueryPlan
    /// The result a newcomer must rank before to be kept; nil when any match is kept (no limit,
    /// or fewer results than the limit).
    let worst: Document?

    /// `results` are the query's results over the whole store, in any order.
    public init(query: Query, database: DatabaseID, results: [Document]) {
        plan = QueryPlan(query, database: database)
        if let limit = query.limit, results.count >= Int(limit) {
            var worst = results[0]
            for result in results.dropFirst() where plan.keepsBefore(worst, result) { worst = result }
            self.worst = worst
        } else {
            worst = nil
        }
    }

    /// True when `document` could be among the results in a cache that also holds them all.
    public func couldShow(_ document: Document) -> Bool {
        guard plan.query.matchesPath(document.path), plan.matchesContent(document) else { return false }
        guard let worst else { return true }
        return plan.keepsBefore(document, worst)
    }
}

extension Query {
    /// The top-level field names the query reads (filters, orderBys, hence cursors), without
    /// `__name__`: a document's version holding these decides whether it matches and where it ranks.
    public var topLevelFieldsRead: Set<String> {
        var names: Set<String> = []
        func note(_ field: FieldPath) {
            if !field.isDocumentKey, let first = field.segments.first { names.insert(first) }
        }
        func visit(_ filter: Filter) {
            switch filter {
            case .field(let field, _, _): note(field)
            case .unary(let field, _): note(field)
            case .composite(_, let filters): filters.forEach(visit)
            }
        }
        filters.forEach(visit)
        normalizedOrderBy.forEach { note($0.field) }
        return names
    }
}
