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
        guard path.isDocument, let collection = collections[path.parent], let position = collection.position(of: path.lastSegment!) else {
            return nil
        }
        return collection.documents[position]
    }

    /// True when some document is stored directly in the collection at `path`.
    public func hasCollection(_ path: ResourcePath) -> Bool {
        collections[path] != nil
    }

    /// The IDs of every collection holding documents (for suggestions in messages).
    public var collectionIDs: Set<String> {
        Set(collections.keys.compactMap(\.lastSegment))
    }

    /// Stores `document`, replacing a stored document with the same path.
    public mutating func insert(_ document: Document) {
        let collectionPath = document.path.parent
        // One look-up of the collection (a path hashes segment by segment), changed in place.
        if let index = collections.index(forKey: collectionPath) {
            collections.values[index].insert(document)
            return
        }
        collectionPathsByID[Array(document.collectionID.utf8), default: []].append(collectionPath)
        var collection = StoredCollection()
        collection.insert(document)
        collections[collectionPath] = collection
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
        var best = TopN<Document>(capacity: Int(limit), isBetter: plan.keepsBefore)
        forEachCandidate(of: query) { document in
            if plan.matchesContent(document) { best.insert(document) }
        }
        let kept = best.sortedBestFirst()
        return query.limitType == .last ? kept.reversed() : kept
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

/// The documents of one collection, in insertion order, with an index by document ID once
/// there are enough of them to be worth one: most collections of an app's export hold a few
/// documents (a story's comments), and an index each would cost more than the documents' paths.
private struct StoredCollection: Sendable {
    var documents: [Document] = []
    /// Positions in `documents` by document ID, from ``indexedFrom`` documents on.
    private var positions: [DocumentID: Int]?
    /// Below this many documents a look-up reads them all.
    private static let indexedFrom = 16

    /// Where the document with this ID is in `documents`.
    func position(of id: String) -> Int? {
        if let positions { return positions[DocumentID(id)] }
        return documents.firstIndex { UTF8Order.equal($0.id, id) }
    }

    mutating func insert(_ document: Document) {
        if let position = position(of: document.id) {
            documents[position] = document
            return
        }
        documents.append(document)
        if positions != nil {
            positions![DocumentID(document.id)] = documents.count - 1
        } else if documents.count == Self.indexedFrom {
            positions = Dictionary(uniqueKeysWithValues: documents.enumerated().map { (DocumentID($1.id), $0) })
        }
    }
}

/// A document ID as a dictionary key: equal when its UTF-8 bytes are (never by Unicode
/// equivalence, as `String` compares), sharing the path segment's storage rather than copying it.
private struct DocumentID: Hashable, Sendable {
    var text: String

    init(_ text: String) {
        self.text = text
    }

    static func == (lhs: DocumentID, rhs: DocumentID) -> Bool {
        UTF8Order.equal(lhs.text, rhs.text)
    }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
