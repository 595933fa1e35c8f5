import FirestoreModel

extension Filter {
    /// The same filter in the form the SDKs send and every client reads best:
    /// `== null`/`== NaN` as `IS_NULL`/`IS_NAN`, `!= null`/`!= NaN` as
    /// `IS_NOT_NULL`/`IS_NOT_NAN`, a composite nested in one of the same operator merged into
    /// it, and a composite of one filter replaced by that filter. Matching is unchanged.
    public var canonical: Filter {
        switch self {
        case .field(let field, let op, let value):
            switch (op, value) {
            case (.equal, .null): return .unary(field, .isNull)
            case (.equal, _) where value.isNaN: return .unary(field, .isNaN)
            case (.notEqual, .null): return .unary(field, .isNotNull)
            case (.notEqual, _) where value.isNaN: return .unary(field, .isNotNaN)
            default: return self
            }
        case .unary:
            return self
        case .composite(let op, let filters):
            var merged: [Filter] = []
            for child in filters.map(\.canonical) {
                if case .composite(op, let grandchildren) = child {
                    merged.append(contentsOf: grandchildren)
                } else {
                    merged.append(child)
                }
            }
            return merged.count == 1 ? merged[0] : .composite(op, merged)
        }
    }
}

extension Query {
    /// The one `where` filter of the canonical StructuredQuery: nil without filters, a bare
    /// filter, or a single `compositeFilter` AND of the canonical top-level filters.
    public var wireFilter: Filter? {
        filters.isEmpty ? nil : Filter.composite(.and, filters).canonical
    }

    /// ``filters`` as they read back from the canonical encoding: the children of a top-level
    /// AND, or the single filter.
    public var canonicalFilters: [Filter] {
        switch wireFilter {
        case nil: return []
        case .composite(.and, let children)?: return children
        case let filter?: return [filter]
        }
    }
}
