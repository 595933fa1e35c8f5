import FirestoreModel
import Testing
@testable import QueryEngine

/// A store filled on several threads, its collections in shards, answers every question as one
/// filled document by document does.
@Suite struct ShardedStoreTests {
    /// Comments under many stories, stories, a document in its own group's scope, numeric ids
    /// that order alike, and paths given twice (the later version counts).
    static let documents: [Document] = {
        var documents: [Document] = []
        var state: UInt64 = 11
        func next(_ bound: UInt64) -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return (state >> 33) % bound
        }
        for index in 0..<600 {
            let story = "s\(next(80))"
            let path = index % 7 == 0 ? "stories/\(story)" : "stories/\(story)/comments/c\(next(200))"
            documents.append(Fixtures.document(path, #"{"n":{"integerValue":"\#(next(50))"},"k":{"stringValue":"\#(index % 3)"}}"#))
        }
        documents += ["comments/__id7__", "comments/__id007__", "stories/s1/comments/__id7__", "comments/x"].map { Fixtures.document($0, #"{"n":{"integerValue":"1"}}"#) }
        return documents
    }()

    static let queries: [Query] = {
        let n = Fixtures.field("n")
        return [
            Query(collectionID: "comments", allDescendants: true),
            Query(parent: try! ResourcePath(parsing: "stories/s3"), collectionID: "comments", allDescendants: true),
            Query(collectionID: "comments", allDescendants: true, filters: [.field(n, .greaterThan, .integer(25))]),
            Query(collectionID: "comments", allDescendants: true, orderBy: [OrderBy(n, .descending)]),
            Query(collectionID: "comments", allDescendants: true, orderBy: [OrderBy(.documentKey, .descending)]),
            Query(collectionID: "comments", allDescendants: true, orderBy: [OrderBy(n)], limit: 7),
            Query(collectionID: "stories"),
            Query(collectionID: "stories", orderBy: [OrderBy(n)], limit: 5, limitType: .last),
            Query(parent: try! ResourcePath(parsing: "stories/s5"), collectionID: "comments"),
            Query(collectionID: "nothing", allDescendants: true),
            // The group's parent document is in its scope.
            Query(parent: try! ResourcePath(parsing: "comments/x"), collectionID: "comments", allDescendants: true),
        ]
    }()

    @Test(arguments: [1, 2, 3, 5])
    func answersAsOneFilledDocumentByDocument(threads: Int) throws {
        var one = DocumentStore(database: Fixtures.database)
        for document in Self.documents { one.insert(document) }
        let documents = Self.documents
        let sharded = DocumentStore(database: Fixtures.database, count: documents.count, threads: threads) { documents[$0] }
        #expect(sharded.count == one.count)
        #expect(sharded.collectionIDs == one.collectionIDs)
        for query in Self.queries {
            #expect(sharded.paths(query) == one.paths(query), "\(query)")
        }
        for document in documents {
            #expect(sharded.document(at: document.path)?.fields["n"] == one.document(at: document.path)?.fields["n"])
            #expect(sharded.hasCollection(document.path.parent))
        }
        #expect(sharded.document(at: try ResourcePath(parsing: "stories/none")) == nil)
        #expect(!sharded.hasCollection(try ResourcePath(parsing: "stories/s1/replies")))
    }
}
