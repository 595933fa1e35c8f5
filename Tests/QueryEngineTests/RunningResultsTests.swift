import FirestoreModel
import Testing
@testable import QueryEngine

@Suite("RunningResults: the documents that can still be results while documents stream past")
struct RunningResultsTests {
    let score = Fixtures.field("score")

    /// Stories with scores that tie (the path breaks ties), some without a score, some not
    /// published, and documents of other collections.
    var documents: [Document] {
        (0..<120).map { index in
            let fields = index % 11 == 0 ? #"{"published":{"booleanValue":true}}"# : #"{"score":{"integerValue":"\#((index * 37) % 23)"},"published":{"booleanValue":\#(index % 4 != 0)}}"#
            return Fixtures.document(index % 9 == 0 ? "other/o\(index)" : "stories/s\(index)", fields)
        }
    }

    var queries: [Query] {
        let published = Filter.field(Fixtures.field("published"), .equal, .boolean(true))
        return [
            Query(collectionID: "stories", filters: [published], orderBy: [OrderBy(score, .descending)], limit: 7),
            Query(collectionID: "stories", orderBy: [OrderBy(score, .ascending)], limit: 4, limitType: .last),
            Query(collectionID: "stories", orderBy: [OrderBy(score, .descending)], startAt: Bound(values: [.integer(15)], inclusive: false), limit: 5),
            Query(collectionID: "stories", orderBy: [OrderBy(score, .ascending)], endAt: Bound(values: [.integer(9)], inclusive: true), limit: 3, limitType: .last),
            Query(collectionID: "stories", limit: 6),
            Query(collectionID: "stories", filters: [published]),
        ]
    }

    /// The tags kept at the end of the matches of `query` among `documents` (tagged by their
    /// index), ranked as they stream past.
    func kept(_ query: Query, _ documents: ArraySlice<Document>) -> Set<Int> {
        let matcher = QueryMatcher(query, database: Fixtures.database)
        var running = RunningResults<Int>(matcher)
        var kept: Set<Int> = []
        for (tag, document) in zip(documents.indices, documents) where matcher.matches(document) {
            switch running.rank(document, tag: tag) {
            case .kept(let displaced):
                #expect(!kept.contains(tag))
                kept.insert(tag)
                if let displaced { #expect(kept.remove(displaced) != nil, "\(displaced) was kept") }
            case .notAmongBest:
                #expect(query.limit != nil)
            }
        }
        return kept
    }

    /// Kept at the end of the stream: exactly the results. Kept at the end of each part of it:
    /// documents whose results are the results.
    @Test func theResultsAreAmongTheDocumentsKeptOfEveryPart() {
        let documents = documents
        var all = DocumentStore(database: Fixtures.database)
        documents.forEach { all.insert($0) }
        for query in queries {
            let results = all.evaluate(query).map(\.path)
            let kept = kept(query, documents[...])
            #expect(Set(kept.map { documents[$0].path.description }) == Set(results.map(\.description)), "\(query)")
            for parts in [2, 3, 7] {
                var candidates = DocumentStore(database: Fixtures.database)
                let size = (documents.count + parts - 1) / parts
                for start in stride(from: 0, to: documents.count, by: size) {
                    for tag in self.kept(query, documents[start..<min(documents.count, start + size)]) { candidates.insert(documents[tag]) }
                }
                #expect(candidates.evaluate(query).map(\.path) == results, "\(query), \(parts) parts")
            }
        }
    }

    @Test func aRankingSaysWhatItDisplaced() {
        let matcher = QueryMatcher(Query(collectionID: "c", orderBy: [OrderBy(score, .descending)], limit: 2), database: Fixtures.database)
        var running = RunningResults<String>(matcher)
        func offer(_ id: String, _ value: Int?) -> String {
            let document = Fixtures.document("c/\(id)", value.map { #"{"score":{"integerValue":"\#($0)"}}"# } ?? "{}")
            guard matcher.matches(document) else { return "not matching" }
            switch running.rank(document, tag: id) {
            case .kept(let displaced): return "kept" + (displaced.map { " over \($0)" } ?? "")
            case .notAmongBest: return "not among best"
            }
        }
        #expect(offer("a", 1) == "kept")
        #expect(offer("b", 5) == "kept")
        #expect(offer("c", 3) == "kept over a")
        #expect(offer("d", 2) == "not among best")
        #expect(offer("e", nil) == "not matching")
        #expect(offer("f", 9) == "kept over c")
    }
}
