import FirestoreModel
import ParallelWork

/// The documents of one database, indexed so a query reads only the collections it can match,
/// and evaluated exactly as the client SDKs evaluate a named query against their cache.
///
/// The collections are held in shards by their paths, which a store of many documents fills,
/// and a query over many collections scans, each on a thread of its own.
public struct DocumentStore: Sendable {
    /// The database every stored document belongs to.
    public let database: DatabaseID
    /// The collections, each in the shard ``shard(of:among:)`` names.
    private var shards: [Shard]

    public init(database: DatabaseID) {
        self.database = database
        shards = [Shard()]
    }

    /// A store of `count` documents, `document(index)` each in index order (a document whose
    /// path came before replaces the earlier one), filled on up to `threads` threads: each fills
    /// the shard of the collections whose paths fall to it, and calls `document` for every index
    /// to find them (so it gives a document it holds, without work of its own to repeat).
    public init(database: DatabaseID, count: Int, threads: Int, document: @Sendable (Int) -> Document) {
        self.database = database
        let shardCount = max(1, min(threads, Self.maximumShards))
        shards = parallelMap(count: shardCount, threads: shardCount) { shardIndex in
            var shard = Shard()
            for index in 0..<count {
                let document = document(index)
                if Self.shard(of: document.path.segments.dropLast(), among: shardCount) == shardIndex { shard.insert(document) }
            }
            return shard
        }
    }

    private static let maximumShards = 16

    /// The shard, among `count`, of the collection whose path has `segments`: FNV-1a over their
    /// UTF-8 bytes, so that the same documents always fall into the same shards (Swift's
    /// `Hasher` is seeded anew in every process) and come out of them in the same order.
    private static func shard(of segments: ArraySlice<String>, among count: Int) -> Int {
        guard count > 1 else { return 0 }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for segment in segments {
            for byte in segment.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
            hash = (hash ^ UInt64(UInt8(ascii: "/"))) &* 0x100_0000_01B3
        }
        return Int(hash % UInt64(count))
    }

    /// The shard holding the collection at `path`.
    private func shard(ofCollection path: ResourcePath) -> Shard {
        shards[Self.shard(of: path.segments[...], among: shards.count)]
    }

    /// The number of stored documents.
    public var count: Int {
        shards.reduce(0) { $0 + $1.collections.values.reduce(0) { $0 + $1.documents.count } }
    }

    /// The stored document at `path`, if any.
    public func document(at path: ResourcePath) -> Document? {
        guard path.isDocument, let collection = shard(ofCollection: path.parent).collections[path.parent],
              let position = collection.position(of: path.lastSegment!)
        else {
            return nil
        }
        return collection.documents[position]
    }

    /// True when some document is stored directly in the collection at `path`.
    public func hasCollection(_ path: ResourcePath) -> Bool {
        shard(ofCollection: path).collections[path] != nil
    }

    /// The documents stored directly in the collection at `path`, in key order (none when it
    /// holds none).
    public func documents(inCollection path: ResourcePath) -> [Document] {
        guard hasCollection(path), let id = path.lastSegment else { return [] }
        return evaluate(Query(parent: path.parent, collectionID: id))
    }

    /// The IDs of every collection holding documents (for suggestions in messages).
    public var collectionIDs: Set<String> {
        Set(shards.flatMap { $0.collections.keys.compactMap(\.lastSegment) })
    }

    /// Stores `document`, replacing a stored document with the same path.
    public mutating func insert(_ document: Document) {
        shards[Self.shard(of: document.path.segments.dropLast(), among: shards.count)].insert(document)
    }

    /// The documents `query` returns, in query order, exactly as a client returns them after
    /// loading these documents in a bundle: matched per ``Query/matches(_:in:)``, ordered by the
    /// normalized orderBys, the limit applied after the cursors (``LimitType/last`` keeps the
    /// last results but still returns them in query order). `offset` and `select` are ignored,
    /// as clients ignore them.
    ///
    /// With a limit of n only the best n matches are kept while scanning (a bounded heap), so
    /// the cost is O(m log n) for m candidates instead of a full sort. Without one, a collection
    /// group's matches are found and ordered in each shard on a thread of its own, then merged.
    public func evaluate(_ query: Query) -> [Document] {
        let plan = QueryPlan(query, database: database)
        guard let limit = query.limit else {
            guard query.allDescendants, shards.count > 1 else {
                var matches: [Document] = []
                forEachCandidate(of: query) { document in
                    if plan.matchesContent(document) { matches.append(document) }
                }
                return plan.sorted(matches)
            }
            let shards = shards
            var ordered = parallelMap(count: shards.count, threads: shards.count) { index in
                var matches: [Document] = []
                shards[index].forEachInGroup(of: query) { document in
                    if plan.matchesContent(document) { matches.append(document) }
                }
                return plan.sorted(matches)
            }
            if let parent = groupParent(of: query), plan.matchesContent(parent) { ordered.append([parent]) }
            var merged = ordered.removeFirst()
            while !ordered.isEmpty { merged = plan.merging(consume merged, ordered.removeFirst()) }
            return merged
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
            for shard in shards { shard.forEachInGroup(of: query, body) }
            if let parent = groupParent(of: query) { body(parent) }
        } else {
            shard(ofCollection: query.collectionPath).collections[query.collectionPath]?.documents.forEach(body)
        }
    }

    /// The document a collection-group query's parent path names, when it is in the group: the
    /// SDK scopes a group with `isPrefixOf`, true for the parent path itself (JS
    /// `queryMatchesPathAndCollectionGroup`).
    private func groupParent(of query: Query) -> Document? {
        query.matchesPath(query.parent) ? document(at: query.parent) : nil
    }
}

/// Some of a store's collections, with the paths of those collections by collection ID.
private struct Shard: Sendable {
    /// Documents by the path of their collection, each collection in insertion order.
    var collections: [ResourcePath: StoredCollection] = [:]
    /// Collection paths by collection ID (UTF-8 bytes), for collection-group queries.
    private var collectionPathsByID: [[UInt8]: [ResourcePath]] = [:]

    mutating func insert(_ document: Document) {
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

    /// Calls `body` with every document of the shard's collections in the group `query` reads
    /// (below its parent, with its collection ID).
    func forEachInGroup(of query: Query, _ body: (Document) -> Void) {
        for path in collectionPathsByID[Array(query.collectionID.utf8)] ?? [] where query.parent.isPrefix(of: path) {
            collections[path]?.documents.forEach(body)
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
