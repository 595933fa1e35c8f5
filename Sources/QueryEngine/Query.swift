import FirestoreModel

/// A Firestore query over one collection or collection group, with the semantics of a
/// `StructuredQuery` as the client SDKs evaluate it against their cache.
///
/// The model keeps what the user wrote: explicit orderBys only (see
/// ``normalizedOrderBy`` for the implicit ones), cursors and limit unflipped for
/// ``LimitType/last``. `offset` and `select` exist only so ``QueryValidator`` can reject them:
/// every client drops or refuses them in a bundle, so evaluation ignores them as the JS client does.
public struct Query: Sendable, Equatable {
    /// The path the query is scoped to: the database root or a document path.
    public var parent: ResourcePath
    /// The ID of the queried collection (or collection group).
    public var collectionID: String
    /// True for a collection-group query: every collection named ``collectionID`` at any depth
    /// under ``parent``. False for a shallow query of `parent/collectionID`.
    public var allDescendants: Bool
    /// Filters that must all match (an implicit AND).
    public var filters: [Filter]
    /// The explicit orderBys, in order.
    public var orderBy: [OrderBy]
    /// The position results start at (`startAt`/`startAfter`).
    public var startAt: Bound?
    /// The position results end at (`endAt`/`endBefore`).
    public var endAt: Bound?
    /// The maximum number of results.
    public var limit: Int32?
    /// Whether ``limit`` keeps the first or the last results in query order.
    public var limitType: LimitType
    /// A StructuredQuery `offset`; clients ignore it in bundles, so it is only kept for validation.
    public var offset: Int32?
    /// A StructuredQuery projection; clients ignore it in bundles, so it is only kept for validation.
    public var select: [FieldPath]?

    public init(
        parent: ResourcePath = .root,
        collectionID: String,
        allDescendants: Bool = false,
        filters: [Filter] = [],
        orderBy: [OrderBy] = [],
        startAt: Bound? = nil,
        endAt: Bound? = nil,
        limit: Int32? = nil,
        limitType: LimitType = .first,
        offset: Int32? = nil,
        select: [FieldPath]? = nil
    ) {
        self.parent = parent
        self.collectionID = collectionID
        self.allDescendants = allDescendants
        self.filters = filters
        self.orderBy = orderBy
        self.startAt = startAt
        self.endAt = endAt
        self.limit = limit
        self.limitType = limitType
        self.offset = offset
        self.select = select
    }

    /// Equality of the model; the collection ID compares byte-exactly (no Unicode normalisation).
    public static func == (lhs: Query, rhs: Query) -> Bool {
        lhs.parent == rhs.parent && UTF8Order.equal(lhs.collectionID, rhs.collectionID)
            && lhs.allDescendants == rhs.allDescendants && lhs.filters == rhs.filters
            && lhs.orderBy == rhs.orderBy && lhs.startAt == rhs.startAt && lhs.endAt == rhs.endAt
            && lhs.limit == rhs.limit && lhs.limitType == rhs.limitType
            && lhs.offset == rhs.offset && lhs.select == rhs.select
    }
}

/// Which end of the ordered results a limit keeps (proto `BundledQuery.LimitType`).
public enum LimitType: String, Sendable, Equatable {
    /// `limit(n)`: the first n results.
    case first = "FIRST"
    /// `limitToLast(n)`: the last n results, still returned in query order.
    case last = "LAST"
}
