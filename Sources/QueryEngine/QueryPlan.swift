import FirestoreModel

/// A query with its normalized orderBys computed once, ready to test and order many documents.
struct QueryPlan: Sendable {
    let query: Query
    let orderBy: [OrderBy]
    /// The database the documents belong to (for `__name__` as a reference value).
    let database: DatabaseID

    init(_ query: Query, database: DatabaseID) {
        self.query = query
        self.database = database
        orderBy = query.normalizedOrderBy
    }

    /// Everything of `queryMatches` but the path test, which the store's index already did.
    func matchesContent(_ document: Document) -> Bool {
        for order in orderBy where !order.field.isDocumentKey {
            if document.fields.value(at: order.field) == nil { return false }
        }
        for filter in query.filters where !filter.matches(document) {
            return false
        }
        if let start = query.startAt {
            let position = compare(start, document)
            guard start.inclusive ? position != .greater : position == .less else { return false }
        }
        if let end = query.endAt {
            let position = compare(end, document)
            guard end.inclusive ? position != .less : position == .greater else { return false }
        }
        return true
    }

    /// Every document in query order: by document key alone (a fast path for the common
    /// collection scan) when that is the only orderBy, else by ``compare(_:_:)``.
    ///
    /// Sorted in place, each document moved rather than copied (in the array's buffer: `Array`'s
    /// own swaps copy): a copy retains what the document holds, a cache miss each for documents
    /// spread over a large store.
    func sorted(_ documents: consuming [Document]) -> [Document] {
        var documents = consume documents
        guard orderBy.count == 1, let order = orderBy.first, order.field.isDocumentKey else {
            documents.sort { compare($0, $1) == .less }
            return documents
        }
        documents.sort(byPath: \.path)
        if order.direction != .ascending { documents.withUnsafeMutableBufferPointer { $0.reverse() } }
        return documents
    }

    /// `earlier` and `later`, each in query order, as one array in query order; of documents
    /// that order alike, `earlier`'s come first. Filled from the end, each document moved out of
    /// its array into its place (a copy retains what it holds).
    func merging(_ earlier: consuming [Document], _ later: consuming [Document]) -> [Document] {
        var earlier = consume earlier
        var later = consume later
        let count = earlier.count + later.count
        return [Document](unsafeUninitializedCapacity: count) { buffer, initialized in
            for position in (0..<count).reversed() {
                let fromEarlier = later.isEmpty || (!earlier.isEmpty && compare(earlier[earlier.count - 1], later[later.count - 1]) == .greater)
                (buffer.baseAddress! + position).initialize(to: fromEarlier ? earlier.removeLast() : later.removeLast())
            }
            initialized = count
        }
    }

    /// Whether `lhs` is kept before `rhs` when the limit leaves one of them out: it comes first
    /// in query order, or last with ``LimitType/last``.
    func keepsBefore(_ lhs: Document, _ rhs: Document) -> Bool {
        compare(lhs, rhs) == (query.limitType == .last ? .greater : .less)
    }

    /// Query order (JS `newQueryComparator`): each normalized orderBy in turn, direction-aware.
    /// Both documents must have every orderBy field (``matchesContent(_:)`` checked it).
    func compare(_ lhs: Document, _ rhs: Document) -> Ordering {
        for order in orderBy {
            var result: Ordering
            if order.field.isDocumentKey {
                result = ResourcePath.compare(lhs.path, rhs.path)
            } else {
                result = Value.compare(lhs.fields.value(at: order.field) ?? .null, rhs.fields.value(at: order.field) ?? .null)
            }
            if order.direction == .descending { result = result.reversed }
            if result != .equal { return result }
        }
        return .equal
    }

    /// Where a cursor lies against a document (JS `boundCompareToDocument`): only the first
    /// `bound.values.count` orderBys count, so a partial position ties with every document
    /// sharing those values. A `__name__` component is compared as a document key.
    func compare(_ bound: Bound, _ document: Document) -> Ordering {
        for (component, order) in zip(bound.values, orderBy) {
            var result: Ordering
            if order.field.isDocumentKey, case .reference(let name) = component {
                result = ResourcePath.compare(name.path, document.path)
            } else {
                // A non-reference `__name__` component (clients fail on it; QueryValidator rejects
                // it) orders against the document's reference by type, like any other value.
                result = Value.compare(component, document.value(at: order.field, database: database) ?? .null)
            }
            if order.direction == .descending { result = result.reversed }
            if result != .equal { return result }
        }
        return .equal
    }
}
