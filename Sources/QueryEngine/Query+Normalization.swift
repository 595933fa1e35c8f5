import FirestoreModel

extension Query {
    /// The fields of every inequality filter (`<`, `<=`, `>`, `>=`, `!=`, `not-in`,
    /// `IS_NOT_NULL`, `IS_NOT_NAN`), also inside composite filters, without duplicates, in
    /// field-path order (JS `getInequalityFilterFields`).
    public var inequalityFields: [FieldPath] {
        var fields: [FieldPath] = []
        for filter in filters {
            filter.forEachFieldFilter { field, op, _ in
                if op.isInequality, !fields.contains(field) { fields.append(field) }
            }
        }
        return fields.sorted { FieldPath.compare($0, $1) == .less }
    }

    /// The orderBys the clients really sort and filter by (JS `queryNormalizedOrderBy`): the
    /// explicit ones; then every inequality field not yet ordered, in field-path order; then
    /// `__name__` unless already ordered. Implicit orderBys take the direction of the last
    /// explicit one (ascending when there is none).
    public var normalizedOrderBy: [OrderBy] {
        var result = orderBy
        let direction = orderBy.last?.direction ?? .ascending
        for field in inequalityFields where !field.isDocumentKey && !result.contains(where: { $0.field == field }) {
            result.append(OrderBy(field, direction))
        }
        if !result.contains(where: { $0.field.isDocumentKey }) {
            result.append(OrderBy(.documentKey, direction))
        }
        return result
    }
}

extension Filter {
    /// Calls `body` with every leaf filter in field-filter form (a unary filter as its
    /// equivalent, e.g. `IS_NOT_NULL` as `!= null`), depth first.
    public func forEachFieldFilter(_ body: (FieldPath, Operator, Value) throws -> Void) rethrows {
        switch self {
        case .field(let field, let op, let value):
            try body(field, op, value)
        case .unary(let field, let op):
            let (fieldOp, value) = op.fieldFilterEquivalent
            try body(field, fieldOp, value)
        case .composite(_, let filters):
            for filter in filters { try filter.forEachFieldFilter(body) }
        }
    }
}
