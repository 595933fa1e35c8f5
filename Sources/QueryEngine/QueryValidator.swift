import FirestoreModel

/// Checks a query against the Firestore backend's limits (queries-and-exports.md §2.9), the
/// product's rules for named queries, and what the target clients can load from a bundle
/// (bundle-format.md §5).
///
/// Validation collects every problem rather than stopping at the first, so a user fixes a
/// config in one pass: ``problems(in:)-(Query)`` returns them, ``validate(_:)`` throws them all
/// as one ``QueryValidationError``.
public struct QueryValidator: Sendable {
    /// The clients the bundles must load in.
    public var clients: ClientPlatform

    /// The backend's limit on `in`/`array-contains-any` values and DNF disjunctions.
    public static let maximumDisjunctions = 30
    /// The backend's limit on `not-in` values.
    public static let maximumNotInValues = 10

    public init(clients: ClientPlatform = .all) {
        self.clients = clients
    }

    /// Throws every problem of `bundledQuery` at once.
    public func validate(_ bundledQuery: BundledQuery) throws(QueryValidationError) {
        let found = problems(in: bundledQuery)
        if !found.isEmpty { throw QueryValidationError(problems: found) }
    }

    /// Every problem of a bundled query: those of its ``Query`` plus references to another
    /// project or database (in `__name__` filters and cursors the backend rejects them; as
    /// values iOS fails to load them).
    public func problems(in bundledQuery: BundledQuery) -> [QueryProblem] {
        problems(in: bundledQuery.query) + foreignReferenceProblems(bundledQuery)
    }

    /// Every problem of `query` that does not depend on its database.
    public func problems(in query: Query) -> [QueryProblem] {
        var found = scopeProblems(query)
        for filter in query.filters {
            filter.forEachFieldFilter { field, op, value in
                found += leafProblems(field, op, value)
            }
        }
        found += combinationProblems(query)
        found += cursorProblems(query)
        found += limitProblems(query)
        found += clientProblems(query)
        return found
    }

    // MARK: - Scope

    private func scopeProblems(_ query: Query) -> [QueryProblem] {
        var found: [QueryProblem] = []
        if query.collectionID.isEmpty || query.collectionID.utf8.contains(UInt8(ascii: "/")) {
            found.append(QueryProblem(rule: .scope, message: "the collection ID \"\(query.collectionID)\" must be non-empty and contain no '/' (a query without a collection is not supported)"))
        }
        if !query.parent.isEmpty && !query.parent.isDocument {
            found.append(QueryProblem(rule: .scope, message: "the parent \"\(query.parent)\" names a collection; a query is scoped to the database root or a document"))
        }
        return found
    }

    // MARK: - Single filters

    private func leafProblems(_ field: FieldPath, _ op: Filter.Operator, _ value: Value) -> [QueryProblem] {
        var found: [QueryProblem] = []
        if op.takesList {
            let limit = op == .notIn ? Self.maximumNotInValues : Self.maximumDisjunctions
            let count = value.listElements.count
            if case .array = value, (1...limit).contains(count) {} else {
                found.append(QueryProblem(rule: .listOperand, message: "'\(field) \(op.symbol)' needs a non-empty array of at most \(limit) values, found \(describe(value, count: count))"))
            }
        } else if (value.isNull || value.isNaN) && op != .equal && op != .notEqual {
            found.append(QueryProblem(rule: .nullOrNaNComparison, message: "'\(field) \(op.symbol) \(value.isNull ? "null" : "NaN")': only == and != can compare with null or NaN (the backend rejects the query)"))
        }
        if field.isDocumentKey {
            found += keyFilterProblems(op, value)
        }
        return found
    }

    private func describe(_ value: Value, count: Int) -> String {
        if case .array = value { return "\(count)" }
        return "a value of type \(value.typeName)"
    }

    private func keyFilterProblems(_ op: Filter.Operator, _ value: Value) -> [QueryProblem] {
        switch op {
        case .arrayContains, .arrayContainsAny:
            return [QueryProblem(rule: .documentKey, message: "'__name__ \(op.symbol)' is not allowed: a document key is not an array")]
        case .in, .notIn:
            guard value.listElements.contains(where: { !$0.isReferenceValue }) else { return [] }
            return [QueryProblem(rule: .documentKey, message: "'__name__ \(op.symbol)' needs document references as values")]
        case .lessThan, .lessThanOrEqual, .equal, .notEqual, .greaterThan, .greaterThanOrEqual:
            guard !value.isReferenceValue else { return [] }
            return [QueryProblem(rule: .documentKey, message: "'__name__ \(op.symbol)' needs a document reference, found a value of type \(value.typeName)")]
        }
    }

    // MARK: - Combinations

    private func combinationProblems(_ query: Query) -> [QueryProblem] {
        var found: [QueryProblem] = []
        let all = Filter.composite(.and, query.filters)
        var operators: [Filter.Operator] = []
        all.forEachFieldFilter { _, op, _ in operators.append(op) }
        let notIns = operators.filter { $0 == .notIn }.count
        let notEquals = operators.filter { $0 == .notEqual }.count
        if notIns > 0 {
            let others = operators.filter { [.in, .arrayContainsAny, .notEqual].contains($0) }.map(\.symbol)
                + (notIns > 1 ? ["another not-in"] : []) + (all.containsOr ? ["OR"] : [])
            if !others.isEmpty {
                found.append(QueryProblem(rule: .notInConflict, message: "a not-in filter cannot be combined with \(Set(others).sorted().joined(separator: ", ")) in the same query"))
            }
        }
        if notEquals > 1 {
            found.append(QueryProblem(rule: .multipleNotEqual, message: "the query has \(notEquals) != filters (IS_NOT_NULL and IS_NOT_NAN count as !=); at most one is allowed"))
        }
        let disjunctions = all.disjunctionCount
        if disjunctions > Self.maximumDisjunctions {
            found.append(QueryProblem(rule: .disjunctionCount, message: "the filter has \(disjunctions) disjunctions in disjunctive normal form (an in or array-contains-any of n values counts n, ANDed terms multiply); the backend allows \(Self.maximumDisjunctions)"))
        }
        if all.arrayContainsPerDisjunction > 1 {
            found.append(QueryProblem(rule: .arrayContainsPerDisjunction, message: "a disjunction of the filter has \(all.arrayContainsPerDisjunction) array-contains/array-contains-any filters; at most one is allowed"))
        }
        if query.filters.contains(where: \.containsEmptyComposite) {
            found.append(QueryProblem(rule: .emptyComposite, message: "a composite (AND/OR) filter has no filters"))
        }
        return found
    }

    // MARK: - Cursors and limits

    private func cursorProblems(_ query: Query) -> [QueryProblem] {
        let orderBy = query.normalizedOrderBy
        var found: [QueryProblem] = []
        for (name, bound) in [("startAt", query.startAt), ("endAt", query.endAt)] {
            guard let bound else { continue }
            if bound.values.isEmpty {
                found.append(QueryProblem(rule: .cursor, message: "\(name) has no values; a cursor needs at least one"))
            } else if bound.values.count > orderBy.count {
                found.append(QueryProblem(rule: .cursor, message: "\(name) has \(bound.values.count) values but the query orders by only \(orderBy.count) fields (\(orderBy.map(\.field.canonicalString).joined(separator: ", ")))"))
            }
            for (value, order) in zip(bound.values, orderBy) where order.field.isDocumentKey && !value.isReferenceValue {
                found.append(QueryProblem(rule: .cursor, message: "\(name): the __name__ position must be a document reference, found a value of type \(value.typeName)"))
            }
        }
        return found
    }

    private func limitProblems(_ query: Query) -> [QueryProblem] {
        var found: [QueryProblem] = []
        if let limit = query.limit, limit <= 0 {
            found.append(QueryProblem(rule: .limit, message: "limit must be positive, found \(limit)"))
        }
        if query.limitType == .last {
            if query.limit == nil {
                found.append(QueryProblem(rule: .limitToLastWithoutLimit, message: "limitToLast needs a limit"))
            }
            if query.orderBy.isEmpty {
                found.append(QueryProblem(rule: .limitToLastWithoutOrderBy, message: "limitToLast needs an explicit orderBy: getDocs() and onSnapshot() reject such a named query (only getDocsFromCache runs it)"))
            }
        }
        return found
    }
}

extension Value {
    var isReferenceValue: Bool {
        if case .reference = self { return true }
        return false
    }
}

extension Filter {
    /// The number of disjunctions in disjunctive normal form: `in`/`array-contains-any` of n
    /// values count n, AND multiplies, OR adds (saturating, far above any limit).
    var disjunctionCount: Int {
        let cap = 1 << 20
        switch self {
        case .field(_, .in, let value), .field(_, .arrayContainsAny, let value):
            return max(1, value.listElements.count)
        case .field, .unary:
            return 1
        case .composite(.and, let filters):
            return filters.reduce(1) { min(cap, $0 * $1.disjunctionCount) }
        case .composite(.or, let filters):
            return filters.reduce(0) { min(cap, $0 + $1.disjunctionCount) }
        }
    }

    /// The most `array-contains`/`array-contains-any` filters any one disjunction has.
    var arrayContainsPerDisjunction: Int {
        switch self {
        case .field(_, .arrayContains, _), .field(_, .arrayContainsAny, _):
            return 1
        case .field, .unary:
            return 0
        case .composite(.and, let filters):
            return filters.reduce(0) { $0 + $1.arrayContainsPerDisjunction }
        case .composite(.or, let filters):
            return filters.map(\.arrayContainsPerDisjunction).max() ?? 0
        }
    }

    /// True when an OR composite appears anywhere.
    var containsOr: Bool {
        guard case .composite(let op, let filters) = self else { return false }
        return op == .or || filters.contains { $0.containsOr }
    }

    var containsEmptyComposite: Bool {
        guard case .composite(_, let filters) = self else { return false }
        return filters.isEmpty || filters.contains { $0.containsEmptyComposite }
    }
}
