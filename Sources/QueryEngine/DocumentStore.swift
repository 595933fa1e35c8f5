import FirestoreModel

/// The documents of one database, indexed so a query reads only the collections it can match,
/// and evaluated exactly as the client SDKs evaluate a named query against their cache.
public struct DocumentStore: Sendable {
    /// The database every stored document belongs to.
    public let database: DatabaseID
    /// Documents by the path of their collection, each collection in insertion order.
    private var collections: [ResourcePath: StoredCollection] = [:]
    /// Collection paths by collection ID (UTF-8 bytes), for collection-group queries.
    private var collectionPathsByID: [[UInt8]: [ResourcePath]] = [:]

    public init(database: DatabaseID) {
        self.database = database
    }

    /// The number of stored documents.
    public var count: Int {
        collections.values.reduce(0) { $0 + $1.documents.count }
    }

    /// The stored document at `path`, if any.
    public func document(at path: ResourcePath) -> Document? {
        guard path.isDocument, let collection = collections[path.parent], let position = collection.positions[Array(path.lastSegment!.utf8)] else {
            return nil
        }
        return collection.documents[position]
    }

    /// True when some document is stored directly in the collection at `path`.
    public func hasCollection(_ path: ResourcePath) -> Bool {
        collections[path] != nil
    }

    /// True when some collection with this ID holds documents, at any depth.
    public func hasCollectionGroup(_ collectionID: String) -> Bool {
        collectionPathsByID[Array(collectionID.utf8)] != nil
    }

    /// The IDs of every collection holding documents (for suggestions in messages).
    public var collectionIDs: Set<String> {
        Set(collections.keys.compactMap(\.lastSegment))
    }

    /// Stores `document`, replacing a stored document with the same path.
    public mutating func insert(_ document: Document) {
        let collectionPath = document.path.parent
        if collections[collectionPath] == nil {
            collectionPathsByID[Array(document.collectionID.utf8), default: []].append(collectionPath)
        }
        collections[collectionPath, default: StoredCollection()].insert(document)
    }

    /// The documents `query` returns, in query order, exactly as a client returns them after
    /// loading these documents in a bundle: matched per ``Query/matches(_:in:)``, ordered by the
    /// normalized orderBys, the limit applied after the cursors (``LimitType/last`` keeps the
    /// last results but still returns them in query order). `offset` and `select` are ignored,
    /// as clients ignore them.
    ///
    /// With a limit of n only the best n matches are kept while scanning (a bounded heap), so
    /// the cost is O(m log n) for m candidates instead of a full sort.
    public func evaluate(_ query: Query) -> [Document] {
        let plan = QueryPlan(query, database: database)
        guard let limit = query.limit else {
            var matches: [Document] = []
            forEachCandidate(of: query) { document in
                if plan.matchesContent(document) { matches.append(document) }
            }
            return plan.sorted(matches)
        }
        let keepsLast = query.limitType == .last
        var best = TopN<Document>(capacity: Int(limit)) { lhs, rhs in
            plan.compare(lhs, rhs) == (keepsLast ? .greater : .less)
        }
        forEachCandidate(of: query) { document in
            if plan.matchesContent(document) { best.insert(document) }
        }
        let kept = best.sortedBestFirst()
        return keepsLast ? kept.reversed() : kept
    }

    /// Calls `body` with every document in the query's scope, reading only the matching
    /// collections.
    private func forEachCandidate(of query: Query, _ body: (Document) -> Void) {
        if query.allDescendants {
            for path in collectionPathsByID[Array(query.collectionID.utf8)] ?? [] where query.parent.isPrefix(of: path) {
                collections[path]?.documents.forEach(body)
            }
            // The SDK scopes a group with `isPrefixOf`, true for the parent path itself: a parent
            // document in the group is in scope (JS `queryMatchesPathAndCollectionGroup`).
            if query.matchesPath(query.parent), let parent = document(at: query.parent) {
                body(parent)
            }
        } else {
            collections[query.collectionPath]?.documents.forEach(body)
        }
    }
}

/// The documents of one collection, in insertion order, with an index by document ID.
private struct StoredCollection: Sendable {
    var documents: [Document] = []
    /// Positions in `documents` by document ID (UTF-8 bytes, so IDs never merge by Unicode
    /// equivalence).
    var positions: [[UInt8]: Int] = [:]

    mutating func insert(_ document: Document) {
        let id = Array(document.id.utf8)
        if let position = positions[id] {
            documents[position] = document
        } else {
            positions[id] = documents.count
            documents.append(document)
        }
    }
}
