import FirestoreModel
import Testing
@testable import QueryEngine

@Suite("Evaluation rules of queries-and-exports.md Part 2")
struct EvaluationTests {
    let v = Fixtures.field("v")
    let a = Fixtures.field("a")

    var numbers: DocumentStore {
        Fixtures.store([
            ("c/nan", #"{"v":{"doubleValue":"NaN"}}"#), ("c/ninf", #"{"v":{"doubleValue":"-Infinity"}}"#),
            ("c/zero", #"{"v":{"integerValue":"0"}}"#), ("c/null", #"{"v":{"nullValue":null}}"#),
            ("c/str", #"{"v":{"stringValue":"a"}}"#), ("c/missing", #"{}"#),
        ])
    }

    @Test func nanAndNullInRanges() {
        let store = numbers
        #expect(store.paths(Query(collectionID: "c", filters: [.field(v, .lessThan, .integer(1))])) == ["c/nan", "c/ninf", "c/zero"])
        #expect(store.paths(Query(collectionID: "c", filters: [.field(v, .lessThanOrEqual, .double(.nan))])) == ["c/nan"])
        #expect(store.paths(Query(collectionID: "c", filters: [.field(v, .greaterThan, .double(.nan))])) == ["c/ninf", "c/zero"])
        #expect(store.paths(Query(collectionID: "c", filters: [.field(v, .lessThanOrEqual, .null)])) == ["c/null"])
        #expect(store.paths(Query(collectionID: "c", filters: [.unary(v, .isNotNaN)])) == ["c/ninf", "c/zero", "c/str"])
        #expect(store.paths(Query(collectionID: "c", filters: [.unary(v, .isNotNull)])) == ["c/nan", "c/ninf", "c/zero", "c/str"])
        #expect(store.paths(Query(collectionID: "c", filters: [.field(v, .in, .array([.double(.nan), .null]))])) == ["c/nan", "c/null"])
    }

    @Test func numericDocumentIDs() {
        let store = Fixtures.store([("c/__id10__", "{}"), ("c/a", "{}"), ("c/__id5__", "{}"), ("c/__id-2__", "{}"), ("c/__idx__", "{}")])
        #expect(store.paths(Query(collectionID: "c")) == ["c/__id-2__", "c/__id5__", "c/__id10__", "c/__idx__", "c/a"])
        let after5 = Query(collectionID: "c", filters: [.field(.documentKey, .greaterThan, Fixtures.reference("c/__id5__"))])
        #expect(store.paths(after5) == ["c/__id10__", "c/__idx__", "c/a"])
        let notIn = Query(collectionID: "c", filters: [.field(.documentKey, .notIn, .array([Fixtures.reference("c/__id5__"), Fixtures.reference("c/a")]))])
        #expect(store.paths(notIn) == ["c/__id-2__", "c/__id10__", "c/__idx__"])
    }

    @Test func collectionGroupScopedToADocument() throws {
        let store = Fixtures.store([
            ("c/x/m/1", "{}"), ("c/xy/m/2", "{}"), ("c/x/q/z/m/3", "{}"), ("m/4", "{}"), ("c/x/m/1/m/5", "{}"), ("c/x/mm/6", "{}"),
        ])
        let scoped = Query(parent: try ResourcePath(parsing: "c/x"), collectionID: "m", allDescendants: true)
        #expect(store.paths(scoped) == ["c/x/m/1", "c/x/m/1/m/5", "c/x/q/z/m/3"])
        #expect(store.paths(Query(collectionID: "m", allDescendants: true)).count == 5)
        #expect(store.paths(Query(parent: try ResourcePath(parsing: "c/x/m/1"), collectionID: "m")) == ["c/x/m/1/m/5"])
    }

    /// The JS SDK scopes a collection group with `query.path.isPrefixOf(docPath)`, which holds
    /// for the path itself: a parent document whose collection is the group is a result too,
    /// and with a limit it takes a place in the window.
    @Test func collectionGroupScopedToADocumentOfTheGroupIncludesIt() throws {
        let store = Fixtures.store([("c/x/m/1", "{}"), ("c/x/m/1/m/5", "{}"), ("c/x/m/1/q/y/m/7", "{}"), ("c/x/m/2", "{}")])
        let parent = try ResourcePath(parsing: "c/x/m/1")
        #expect(store.paths(Query(parent: parent, collectionID: "m", allDescendants: true)) == ["c/x/m/1", "c/x/m/1/m/5", "c/x/m/1/q/y/m/7"])
        #expect(store.paths(Query(parent: parent, collectionID: "m", allDescendants: true, limit: 2)) == ["c/x/m/1", "c/x/m/1/m/5"])
        #expect(store.paths(Query(parent: parent, collectionID: "q", allDescendants: true)) == [])
    }

    @Test func cursorsOnDocumentKeys() {
        let store = Fixtures.store([("c/a", "{}"), ("c/b", "{}"), ("c/c", "{}"), ("c/d", "{}")])
        let desc = [OrderBy(.documentKey, .descending)]
        let query = Query(collectionID: "c", orderBy: desc, startAt: Bound(values: [Fixtures.reference("c/c")], inclusive: false),
                          endAt: Bound(values: [Fixtures.reference("c/a")], inclusive: true))
        #expect(store.paths(query) == ["c/b", "c/a"])
        // The implicit __name__ orderBy after `a` takes a's direction.
        let ties = Fixtures.store([("c/p", #"{"a":{"integerValue":"1"}}"#), ("c/q", #"{"a":{"integerValue":"1"}}"#), ("c/r", #"{"a":{"integerValue":"1"}}"#)])
        let startAfterQ = Query(collectionID: "c", orderBy: [OrderBy(a, .descending)], startAt: Bound(values: [.integer(1), Fixtures.reference("c/q")], inclusive: false))
        #expect(ties.paths(startAfterQ) == ["c/p"])
    }

    @Test func topNWithTiesOrdersByName() {
        var store = DocumentStore(database: Fixtures.database)
        for index in 0..<200 {
            store.insert(Fixtures.document("c/d\((index * 37) % 200)", #"{"a":{"integerValue":"\#(index % 3)"}}"#))
        }
        for direction in [OrderBy.Direction.ascending, .descending] {
            for limitType in [LimitType.first, .last] {
                var query = Query(collectionID: "c", filters: [.field(a, .notEqual, .integer(1))], orderBy: [OrderBy(a, direction)])
                let all = store.paths(query)
                #expect(all.count == 133)
                query.limit = 7
                query.limitType = limitType
                #expect(store.paths(query) == (limitType == .first ? Array(all.prefix(7)) : Array(all.suffix(7))))
            }
        }
        // Ties on `a` are broken by document key, in a's direction.
        let firstTies = store.evaluate(Query(collectionID: "c", orderBy: [OrderBy(a)], limit: 50))
        #expect(zip(firstTies, firstTies.dropFirst()).allSatisfy { ResourcePath.compare($0.path, $1.path) == .less })
    }

    @Test func limitToLastWithCursors() {
        let store = Fixtures.store((1...6).map { ("c/d\($0)", #"{"a":{"integerValue":"\#($0)"}}"#) })
        let query = Query(collectionID: "c", orderBy: [OrderBy(a, .descending)], startAt: Bound(values: [.integer(5)], inclusive: false),
                          endAt: Bound(values: [.integer(2)], inclusive: true), limit: 2, limitType: .last)
        #expect(store.paths(query) == ["c/d3", "c/d2"])
    }

    @Test func inequalityImpliesOrderAndPresence() {
        let store = Fixtures.store([
            ("c/p", #"{"a":{"integerValue":"3"},"b":{"integerValue":"1"}}"#), ("c/q", #"{"a":{"integerValue":"2"}}"#),
            ("c/s", #"{"b":{"integerValue":"5"}}"#), ("c/t", #"{"a":{"nullValue":null},"b":{"integerValue":"5"}}"#),
        ])
        let query = Query(collectionID: "c", filters: [.composite(.or, [.unary(a, .isNotNull), .field(Fixtures.field("b"), .equal, .integer(5))])])
        #expect(query.normalizedOrderBy == [OrderBy(a), OrderBy(.documentKey)])
        #expect(store.paths(query) == ["c/t", "c/q", "c/p"])
        let multi = Query(collectionID: "c", filters: [.field(Fixtures.field("b"), .greaterThan, .integer(0)), .field(a, .notIn, .array([.integer(9)]))],
                          orderBy: [OrderBy(Fixtures.field("b"), .descending)])
        #expect(multi.normalizedOrderBy == [OrderBy(Fixtures.field("b"), .descending), OrderBy(a, .descending), OrderBy(.documentKey, .descending)])
        #expect(store.paths(multi) == ["c/p"])
    }

    @Test func strictEqualityForListOperators() {
        let store = Fixtures.store([
            ("c/i", #"{"v":{"integerValue":"0"}}"#), ("c/z", #"{"v":{"doubleValue":0.0}}"#), ("c/n", #"{"v":{"doubleValue":"-0"}}"#),
            ("c/arr", #"{"v":{"arrayValue":{"values":[{"doubleValue":"-0"},{"nullValue":null}]}}}"#),
        ])
        #expect(store.paths(Query(collectionID: "c", filters: [.field(v, .equal, .integer(0))])) == ["c/i", "c/n", "c/z"])
        #expect(store.paths(Query(collectionID: "c", filters: [.field(v, .notIn, .array([.double(0)]))])) == ["c/i", "c/n", "c/arr"])
        #expect(store.paths(Query(collectionID: "c", filters: [.field(v, .notIn, .array([.double(0), .null]))])) == [])
        #expect(store.paths(Query(collectionID: "c", filters: [.field(v, .arrayContainsAny, .array([.double(0), .null]))])) == ["c/arr"])
        #expect(store.paths(Query(collectionID: "c", filters: [.field(v, .arrayContains, .double(-0.0))])) == ["c/arr"])
    }

    @Test func storeKeepsUnicodeDistinctIDsAndReplacesByPath() {
        var store = Fixtures.store([("c/\u{E9}", #"{"v":{"integerValue":"1"}}"#), ("c/e\u{301}", #"{"v":{"integerValue":"2"}}"#)])
        #expect(store.count == 2)
        store.insert(Fixtures.document("c/\u{E9}", #"{"v":{"integerValue":"3"}}"#))
        #expect(store.count == 2)
        #expect(store.evaluate(Query(collectionID: "c", orderBy: [OrderBy(v)])).map { $0.fields["v"]! } == [.integer(2), .integer(3)])
    }

    /// Collections are searched until they hold enough documents to index by ID: the same
    /// answers on both sides of that, Unicode-equivalent IDs kept apart, a replacement in place.
    @Test(arguments: [3, 15, 16, 17, 40])
    func storeFindsAndReplacesByIDBeforeAndAfterIndexing(count: Int) throws {
        var store = DocumentStore(database: Fixtures.database)
        let ids = (0..<count).map { $0 == 1 ? "\u{E9}" : ($0 == 2 ? "e\u{301}" : "d\($0)") }
        for (n, id) in ids.enumerated() { store.insert(Fixtures.document("c/\(id)", #"{"v":{"integerValue":"\#(n)"}}"#)) }
        store.insert(Fixtures.document("c/\u{E9}", #"{"v":{"integerValue":"100"}}"#))
        #expect(store.count == count)
        // (Swift's `==` would take the two spellings of é for one: compare positions, not IDs.)
        for (n, id) in ids.enumerated() {
            #expect(store.document(at: try ResourcePath(parsing: "c/\(id)"))?.fields["v"] == .integer(n == 1 ? 100 : Int64(n)))
        }
        #expect(store.document(at: try ResourcePath(parsing: "c/d\(count)")) == nil)
        #expect(store.document(at: try ResourcePath(parsing: "d/d0")) == nil)
        #expect(store.evaluate(Query(collectionID: "c")).count == count)
    }

    @Test func queryMatchesAgreesWithTheStore() {
        let store = numbers
        let query = Query(collectionID: "c", filters: [.field(v, .lessThan, .integer(1))], startAt: Bound(values: [.double(-.infinity)], inclusive: true))
        let document = Fixtures.document("c/x", #"{"v":{"integerValue":"0"}}"#)
        #expect(query.matches(document, in: Fixtures.database))
        #expect(!query.matches(Fixtures.document("d/x", #"{"v":{"integerValue":"0"}}"#), in: Fixtures.database))
        #expect(store.paths(query) == ["c/ninf", "c/zero"])
    }
}
