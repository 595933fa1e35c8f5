import FirestoreModel
import JSONCore
import Testing
@testable import QueryEngine

@Suite("BundledQuery encoding and decoding")
struct EncodingTests {
    let database = Fixtures.database

    func text(_ query: Query) -> String {
        String(decoding: BundledQuery(database: database, query: query).jsonBytes, as: UTF8.self)
    }

    @Test func writesTheCanonicalFormByteForByte() {
        let query = Query(
            parent: try! ResourcePath(parsing: "c/x"),
            collectionID: "m",
            allDescendants: true,
            filters: [
                .field(Fixtures.field("a"), .greaterThan, .integer(1)),
                .field(Fixtures.field("`b.c`"), .equal, .null),
            ],
            orderBy: [OrderBy(Fixtures.field("a"), .descending)],
            startAt: Bound(values: [.integer(5)], inclusive: true),
            endAt: Bound(values: [.double(1.5)], inclusive: false),
            limit: 10,
            limitType: .last,
            offset: 3,
            select: [Fixtures.field("a")]
        )
        #expect(text(query) == #"{"parent":"projects/demo/databases/(default)/documents/c/x","structuredQuery":{"from":[{"collectionId":"m","allDescendants":true}],"where":{"compositeFilter":{"op":"AND","filters":[{"fieldFilter":{"field":{"fieldPath":"a"},"op":"GREATER_THAN","value":{"integerValue":1}}},{"unaryFilter":{"op":"IS_NULL","field":{"fieldPath":"`b.c`"}}}]}},"orderBy":[{"field":{"fieldPath":"a"},"direction":"DESCENDING"}],"startAt":{"values":[{"integerValue":5}],"before":true},"endAt":{"values":[{"doubleValue":1.5}],"before":true},"limit":10},"limitType":"LAST"}"#)
    }

    @Test func writesASingleFilterBareAndNoEmptyParts() {
        let query = Query(collectionID: "c", filters: [.field(Fixtures.field("v"), .notEqual, .double(.nan))])
        #expect(text(query) == #"{"parent":"projects/demo/databases/(default)/documents","structuredQuery":{"from":[{"collectionId":"c"}],"where":{"unaryFilter":{"op":"IS_NOT_NAN","field":{"fieldPath":"v"}}}},"limitType":"FIRST"}"#)
    }

    @Test func mapsNullAndNaNComparisonsToUnaryFilters() {
        let v = Fixtures.field("v")
        #expect(Filter.field(v, .equal, .null).canonical == .unary(v, .isNull))
        #expect(Filter.field(v, .equal, .double(.nan)).canonical == .unary(v, .isNaN))
        #expect(Filter.field(v, .notEqual, .null).canonical == .unary(v, .isNotNull))
        #expect(Filter.field(v, .notEqual, .double(.nan)).canonical == .unary(v, .isNotNaN))
        #expect(Filter.field(v, .lessThan, .null).canonical == .field(v, .lessThan, .null))
    }

    @Test func mergesNestedCompositesOfTheSameOperator() {
        let a = Filter.field(Fixtures.field("a"), .equal, .integer(1))
        let b = Filter.field(Fixtures.field("b"), .equal, .integer(2))
        let c = Filter.field(Fixtures.field("c"), .equal, .integer(3))
        let query = Query(collectionID: "c", filters: [a, .composite(.and, [b, .composite(.and, [c])]), .composite(.or, [.composite(.or, [a, b]), c])])
        #expect(query.wireFilter == .composite(.and, [a, b, c, .composite(.or, [a, b, c])]))
        #expect(Query(collectionID: "c", filters: [.composite(.or, [a])]).wireFilter == a)
    }

    @Test func roundTripsThroughTheCanonicalForm() throws {
        let queries = [
            Query(collectionID: "c"),
            Query(parent: try ResourcePath(parsing: "a/b"), collectionID: "c", allDescendants: true,
                  filters: [.composite(.or, [.field(Fixtures.field("x"), .in, .array([.integer(1), .string("é")])), .unary(Fixtures.field("y"), .isNotNull)])],
                  orderBy: [OrderBy(Fixtures.field("x")), OrderBy(.documentKey, .descending)],
                  startAt: Bound(values: [.integer(1), Fixtures.reference("c/d")], inclusive: false),
                  limit: 3, limitType: .last),
            Query(collectionID: "c", filters: [.field(Fixtures.field("v"), .equal, .null), .field(Fixtures.field("w"), .arrayContains, .timestamp(try Timestamp(seconds: 5, nanos: 7)))]),
        ]
        for query in queries {
            let bytes = BundledQuery(database: database, query: query).jsonBytes
            let reread = try BundledQuery(jsonBytes: bytes)
            var canonical = query
            canonical.filters = query.canonicalFilters
            canonical.offset = nil
            canonical.select = nil
            #expect(reread.query == canonical)
            #expect(reread.jsonBytes == bytes)
        }
    }

    @Test func acceptsWhatTheJSClientAccepts() throws {
        let bundled = try BundledQuery(jsonBytes: Array(#"""
        {"parent":"projects/p/databases/db/documents","structuredQuery":{"from":[{"collectionId":"c"}],
         "where":{"compositeFilter":{"op":"OR","filters":[{"unaryFilter":{"op":"IS_NAN","field":{"fieldPath":"a"}}},
           {"compositeFilter":{"op":"AND","filters":[{"fieldFilter":{"field":{"fieldPath":"`x y`.z"},"op":"IN","value":{"arrayValue":{"values":[{"integerValue":"1"}]}}}}]}}]}},
         "orderBy":[{"field":{"fieldPath":"a"}}],"limit":{"value":4},"offset":2,"select":{"fields":[{"fieldPath":"a"}]},"unknown":1}}
        """#.utf8))
        #expect(bundled.database == DatabaseID(project: "p", database: "db"))
        let query = bundled.query
        #expect(query.limit == 4 && query.limitType == .first && query.offset == 2 && query.select == [Fixtures.field("a")])
        #expect(query.orderBy == [OrderBy(Fixtures.field("a"), .ascending)])
        #expect(query.filters == [.composite(.or, [.unary(Fixtures.field("a"), .isNaN), .composite(.and, [.field(FieldPath(segments: ["x y", "z"]), .in, .array([.integer(1)]))])])])
    }

    @Test(arguments: [
        (#"{"parent":"projects/p/databases/d/documents","structuredQuery":{"from":[{"collectionId":"a"},{"collectionId":"b"}]}}"#, #"[{"collectionId":"a"},"#, "exactly one entry"),
        (#"{"parent":"projects/p/databases/d/documents/c","structuredQuery":{"from":[{"collectionId":"a"}]}}"#, #""projects/p/databases/d/documents/c""#, "names a collection"),
        (#"{"parent":"projects/p/databases/d/documents","structuredQuery":{"from":[{"collectionId":"a"}],"where":{"fieldFilter":{"field":{"fieldPath":"v"},"op":"LIKE","value":{"nullValue":null}}}}}"#, #""LIKE""#, "found \"LIKE\""),
        (#"{"parent":"projects/p/databases/d/documents","structuredQuery":{"from":[{"collectionId":"a"}],"orderBy":[{"field":{"fieldPath":"v"},"direction":"DIRECTION_UNSPECIFIED"}]}}"#, #""DIRECTION_UNSPECIFIED""#, "Android reads them as DESCENDING"),
        (#"{"parent":"projects/p/databases/d/documents","structuredQuery":{"from":[{"collectionId":"a"}],"limit":"5"}}"#, #""5""#, "32-bit integer number, found \"5\""),
        (#"{"parent":"projects/p/databases/d/documents","structuredQuery":{"from":[{"collectionId":"a"}],"where":{"fieldFilter":{"field":{"fieldPath":"__name__"},"op":"EQUAL","value":{"stringValue":"x"}}}}}"#, #"{"stringValue":"x"}"#, "needs a referenceValue"),
        (#"{"parent":"projects/p/databases/d/documents","structuredQuery":{"from":[{"collectionId":"a"}],"where":{"fieldFilter":{"field":{"fieldPath":"v"},"op":"IN","value":{"integerValue":"1"}}}}}"#, #"{"integerValue":"1"}"#, "needs an arrayValue"),
        (#"{"parent":"projects/p/databases/d/documents","structuredQuery":{"from":[{"collectionId":"a"}]},"limitType":"BOTH"}"#, #""BOTH""#, "\"FIRST\" or \"LAST\""),
    ] as [(String, String, String)])
    func reportsWhereAndWhatWasWrong(_ json: String, _ culprit: String, _ fragment: String) {
        let offset = Array(json.utf8).firstRange(of: Array(culprit.utf8))!.lowerBound
        #expect {
            _ = try BundledQuery(jsonBytes: Array(json.utf8))
        } throws: { error in
            guard let error = error as? JSONDecodingError else { return false }
            return error.offset == offset && error.message.contains(fragment)
        }
    }
}
