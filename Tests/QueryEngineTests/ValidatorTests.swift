import FirestoreModel
import Testing
@testable import QueryEngine

@Suite("QueryValidator")
struct ValidatorTests {
    let a = Fixtures.field("a")
    let b = Fixtures.field("b")

    func rules(_ query: Query, clients: ClientPlatform = .all) -> [QueryRule] {
        QueryValidator(clients: clients).problems(in: query).map(\.rule)
    }

    func values(_ count: Int) -> Value {
        .array((0..<count).map { .integer(Int64($0)) })
    }

    @Test func orFiltersFailAndroidAndIOS() throws {
        let query = Query(collectionID: "c", filters: [.composite(.or, [.field(a, .equal, .integer(1)), .field(b, .equal, .integer(2))])])
        let problems = QueryValidator().problems(in: query)
        #expect(problems.map(\.rule) == [.orFilter])
        #expect(problems.first?.clients == [.android, .ios])
        #expect(problems.first?.message == "Android and iOS clients fail to load a bundle whose named query uses an OR filter; allow it only with clients: [web]")
        #expect(rules(query, clients: .web).isEmpty)
        #expect(QueryValidator(clients: .android).problems(in: query).first?.message.contains("no targeted client can use it") == true)
    }

    @Test func nestedCompositeFailsIOSOnly() {
        let or = Filter.composite(.or, [.field(a, .equal, .integer(1)), .field(b, .equal, .integer(2))])
        let query = Query(collectionID: "c", filters: [.field(a, .greaterThan, .integer(0)), or])
        #expect(rules(query) == [.orFilter, .nestedCompositeFilter])
        #expect(rules(query, clients: [.web, .android]) == [.orFilter])
        // Nested ANDs are merged by the encoder, so they are fine everywhere.
        let nestedAnd = Query(collectionID: "c", filters: [.field(a, .greaterThan, .integer(0)), .composite(.and, [.field(b, .equal, .integer(2))])])
        #expect(rules(nestedAnd).isEmpty)
    }

    @Test func listSizesAndDisjunctions() {
        #expect(rules(Query(collectionID: "c", filters: [.field(a, .in, values(30))])).isEmpty)
        #expect(rules(Query(collectionID: "c", filters: [.field(a, .in, values(31))])) == [.listOperand, .disjunctionCount])
        #expect(rules(Query(collectionID: "c", filters: [.field(a, .arrayContainsAny, values(0))])) == [.listOperand])
        #expect(rules(Query(collectionID: "c", filters: [.field(a, .notIn, values(11))])) == [.listOperand])
        #expect(rules(Query(collectionID: "c", filters: [.field(a, .in, values(6)), .field(b, .in, values(6))])) == [.disjunctionCount])
        #expect(rules(Query(collectionID: "c", filters: [.field(a, .in, values(6)), .field(b, .in, values(5))])).isEmpty)
    }

    @Test func notEqualAndNotInCombinations() {
        #expect(rules(Query(collectionID: "c", filters: [.field(a, .notIn, values(2)), .field(b, .notEqual, .integer(1))])) == [.notInConflict])
        #expect(rules(Query(collectionID: "c", filters: [.field(a, .notIn, values(2)), .field(b, .in, values(2))])) == [.notInConflict])
        #expect(rules(Query(collectionID: "c", filters: [.field(a, .notIn, values(2)), .field(b, .notIn, values(2))])) == [.notInConflict])
        #expect(rules(Query(collectionID: "c", filters: [.unary(a, .isNotNull), .field(b, .notEqual, .integer(1))])) == [.multipleNotEqual])
        #expect(rules(Query(collectionID: "c", filters: [.field(a, .notEqual, .integer(1)), .field(b, .greaterThan, .integer(1))])).isEmpty)
    }

    @Test func arrayContainsPerDisjunction() {
        let twoInAnd = Query(collectionID: "c", filters: [.field(a, .arrayContains, .integer(1)), .field(b, .arrayContainsAny, values(2))])
        #expect(rules(twoInAnd) == [.arrayContainsPerDisjunction])
        let twoInOr = Query(collectionID: "c", filters: [.composite(.or, [.field(a, .arrayContains, .integer(1)), .field(b, .arrayContains, .integer(2))])])
        #expect(rules(twoInOr, clients: .web).isEmpty)
    }

    @Test func nullAndNaNOnlyWithEquality() {
        #expect(rules(Query(collectionID: "c", filters: [.field(a, .greaterThanOrEqual, .null)])) == [.nullOrNaNComparison])
        #expect(rules(Query(collectionID: "c", filters: [.field(a, .arrayContains, .double(.nan))])) == [.nullOrNaNComparison])
        #expect(rules(Query(collectionID: "c", filters: [.field(a, .equal, .null), .field(b, .notEqual, .double(.nan))])).isEmpty)
    }

    @Test func documentKeyRules() {
        #expect(rules(Query(collectionID: "c", filters: [.field(.documentKey, .arrayContains, Fixtures.reference("c/a"))])) == [.documentKey])
        #expect(rules(Query(collectionID: "c", filters: [.field(.documentKey, .equal, .string("a"))])) == [.documentKey])
        #expect(rules(Query(collectionID: "c", filters: [.field(.documentKey, .in, .array([Fixtures.reference("c/a"), .string("b")]))])) == [.documentKey])
        #expect(rules(Query(collectionID: "c", filters: [.unary(.documentKey, .isNull)])) == [.documentKey])
        #expect(rules(Query(collectionID: "c", startAt: Bound(values: [.string("a")], inclusive: true))) == [.cursor])
    }

    @Test func cursorsLimitsAndScope() throws {
        #expect(rules(Query(collectionID: "c", orderBy: [OrderBy(a)], startAt: Bound(values: [], inclusive: true))) == [.cursor])
        // orderBy a + implicit __name__ = 2 positions.
        #expect(rules(Query(collectionID: "c", orderBy: [OrderBy(a)], endAt: Bound(values: [.integer(1), Fixtures.reference("c/x")], inclusive: true))).isEmpty)
        #expect(rules(Query(collectionID: "c", orderBy: [OrderBy(a)], endAt: Bound(values: [.integer(1), Fixtures.reference("c/x"), .integer(2)], inclusive: true))) == [.cursor])
        #expect(rules(Query(collectionID: "c", limit: 0)) == [.limit])
        #expect(rules(Query(collectionID: "c", orderBy: [OrderBy(a)], limitType: .last)) == [.limitToLastWithoutLimit])
        #expect(rules(Query(collectionID: "c", limit: 2, limitType: .last)) == [.limitToLastWithoutOrderBy])
        #expect(rules(Query(collectionID: "")) == [.scope])
        #expect(rules(Query(parent: try ResourcePath(parsing: "c"), collectionID: "d")) == [.scope])
        #expect(rules(Query(collectionID: "c", filters: [.composite(.and, [])])) == [.emptyComposite])
    }

    @Test func offsetAndSelectAreRejectedForEveryClient() throws {
        let problems = QueryValidator(clients: .web).problems(in: Query(collectionID: "c", offset: 2, select: [a]))
        #expect(problems.map(\.rule) == [.offsetOrSelect])
        #expect(problems.first?.clients == .all)
        #expect(problems.first?.message.contains("offset 2 and select") == true)
    }

    @Test func foreignReferencesFailIOS() throws {
        let other = Value.reference(ResourceName(database: DatabaseID(project: "demo", database: "other"), path: try ResourcePath(parsing: "c/a")))
        let bundled = BundledQuery(database: Fixtures.database, query: Query(collectionID: "c", filters: [.field(a, .equal, .array([other]))]))
        let validator = QueryValidator()
        #expect(validator.problems(in: bundled).map(\.rule) == [.foreignReference])
        #expect(throws: QueryValidationError.self) { try validator.validate(bundled) }
        #expect(QueryValidator(clients: [.web, .android]).problems(in: bundled).isEmpty)
    }
}
