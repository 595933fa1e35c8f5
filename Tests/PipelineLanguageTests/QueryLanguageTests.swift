import FirestoreModel
import QueryEngine
import Testing
@testable import PipelineLanguage

/// A config with one query whose body is `body` (unindented YAML).
private func config(_ body: String, clients: String? = nil) -> String {
    var text = "project: demo\ninputs: [data.ndjson]\n"
    if let clients { text += "clients: \(clients)\n" }
    text += "bundles:\n  - id: b\n    queries:\n      q:\n"
    text += body.split(separator: "\n", omittingEmptySubsequences: false).map { "        " + $0 }.joined(separator: "\n") + "\n"
    return text
}

/// The query `body` parses to.
private func parse(_ body: String, clients: String? = nil) throws -> Query {
    let parsed = try parseConfig(config(body, clients: clients))
    return try #require(parsed.bundles.first?.queries.first?.query)
}

private func field(_ text: String) -> FieldPath {
    try! FieldPath(serverFormat: text)
}

private func ref(_ text: String) -> Value {
    .reference(ResourceName(database: demo, path: path(text)))
}

/// A YAML literal and the value it must become.
struct LiteralCase: Sendable, CustomTestStringConvertible {
    var yaml: String
    var value: Value
    var testDescription: String { yaml }
}

let literalCases: [LiteralCase] = [
    LiteralCase(yaml: "1", value: .integer(1)),
    LiteralCase(yaml: "-42", value: .integer(-42)),
    LiteralCase(yaml: "9223372036854775807", value: .integer(.max)),
    LiteralCase(yaml: "1.0", value: .double(1)),
    LiteralCase(yaml: "!double 1", value: .double(1)),
    LiteralCase(yaml: "!int 7", value: .integer(7)),
    LiteralCase(yaml: "-0.0", value: .double(-0.0)),
    LiteralCase(yaml: ".inf", value: .double(.infinity)),
    LiteralCase(yaml: "-.inf", value: .double(-.infinity)),
    LiteralCase(yaml: "true", value: .boolean(true)),
    LiteralCase(yaml: "false", value: .boolean(false)),
    LiteralCase(yaml: "hello", value: .string("hello")),
    LiteralCase(yaml: "\"1\"", value: .string("1")),
    LiteralCase(yaml: "'true'", value: .string("true")),
    LiteralCase(yaml: "\"null\"", value: .string("null")),
    LiteralCase(yaml: "\"2024-01-02T03:04:05Z\"", value: .string("2024-01-02T03:04:05Z")),
    LiteralCase(yaml: "2024-01-02T03:04:05Z", value: .timestamp(try! Timestamp(seconds: 1_704_164_645, nanos: 0))),
    LiteralCase(yaml: "2024-01-02T03:04:05.5Z", value: .timestamp(try! Timestamp(seconds: 1_704_164_645, nanos: 500_000_000))),
    LiteralCase(yaml: "!timestamp 2024-01-02T03:04:05.000000001Z", value: .timestamp(try! Timestamp(seconds: 1_704_164_645, nanos: 1))),
    LiteralCase(yaml: "!ref c/a", value: ref("c/a")),
    LiteralCase(yaml: "!ref stories/s1/comments/x", value: ref("stories/s1/comments/x")),
    LiteralCase(yaml: "!ref projects/demo/databases/(default)/documents/c/a", value: ref("c/a")),
    LiteralCase(yaml: "!bytes aGk=", value: .bytes([0x68, 0x69])),
    LiteralCase(yaml: "!geopoint [52.5, 13.25]", value: .geoPoint(GeoPoint(latitude: 52.5, longitude: 13.25))),
    LiteralCase(yaml: "!geopoint [-90, 180]", value: .geoPoint(GeoPoint(latitude: -90, longitude: 180))),
    LiteralCase(yaml: "{a: 1, b: [x, 2.5], c: {d: null}}", value: .map(MapValue([
        ("a", .integer(1)), ("b", .array([.string("x"), .double(2.5)])), ("c", .map(MapValue([("d", .null)]))),
    ]))),
    LiteralCase(yaml: "[1, two, 3.0, null]", value: .array([.integer(1), .string("two"), .double(3), .null])),
    LiteralCase(yaml: "{x: .nan}", value: .map(MapValue([("x", .double(.nan))]))),
    LiteralCase(yaml: "[]", value: .array([])),
]

@Suite("Query language → Query")
struct QueryLanguageTests {
    @Test(arguments: literalCases)
    func typedLiterals(_ testCase: LiteralCase) throws {
        let query = try parse("collection: c\nwhere:\n  - [v, ==, \(testCase.yaml)]")
        #expect(query.filters == [.field(field("v"), .equal, testCase.value)])
    }

    @Test func intAndDoubleLiteralsStayDistinct() throws {
        // Strict equality: integer 1 and double 1.0 are different values (as in `in` filters).
        let query = try parse("collection: c\nwhere:\n  - [v, in, [1, 1.0, !double 1]]")
        #expect(query.filters == [.field(field("v"), .in, .array([.integer(1), .double(1), .double(1)]))])
        #expect(query.filters != [.field(field("v"), .in, .array([.integer(1), .integer(1), .integer(1)]))])
    }

    @Test(arguments: ["!geopoint [91, 0]", "!geopoint [1]", "!bytes not*base64", "!ref c", "!int 1.5", "!color red", "2024-01-02"])
    func badLiteralsAreErrors(_ literal: String) throws {
        let error = try #require(configError(config("collection: c\nwhere:\n  - [v, ==, \(literal)]")))
        #expect(error.location?.line == 9, "\(error)")
    }

    @Test func nullAndNaNEqualityBecomeUnaryFilters() throws {
        let query = try parse("""
            collection: c
            where:
              - [a, ==, null]
              - [b, '!=', null]
              - [c, ==, .nan]
            """)
        #expect(query.filters == [.unary(field("a"), .isNull), .unary(field("b"), .isNotNull), .unary(field("c"), .isNaN)])
        let notNaN = try parse("collection: c\nwhere:\n  - [d, '!=', .nan]")
        #expect(notNaN.filters == [.unary(field("d"), .isNotNaN)])
    }

    @Test func everyOperator() throws {
        let query = try parse("""
            collection: c
            where:
              - [a, <, 1]
              - [a, <=, 2]
              - [a, '>', 0]
              - [a, '>=', 0]
              - [b, ==, x]
              - [tags, array-contains, t]
              - [cat, in, [tech, science]]
            """)
        #expect(query.filters == [
            .field(field("a"), .lessThan, .integer(1)),
            .field(field("a"), .lessThanOrEqual, .integer(2)),
            .field(field("a"), .greaterThan, .integer(0)),
            .field(field("a"), .greaterThanOrEqual, .integer(0)),
            .field(field("b"), .equal, .string("x")),
            .field(field("tags"), .arrayContains, .string("t")),
            .field(field("cat"), .in, .array([.string("tech"), .string("science")])),
        ])
        let any = try parse("collection: c\nwhere:\n  - [tags, array-contains-any, [t, 2]]")
        #expect(any.filters == [.field(field("tags"), .arrayContainsAny, .array([.string("t"), .integer(2)]))])
        let notIn = try parse("collection: c\nwhere:\n  - [a, not-in, [1, 2]]")
        #expect(notIn.filters == [.field(field("a"), .notIn, .array([.integer(1), .integer(2)]))])
        let notEqual = try parse("collection: c\nwhere:\n  - [a, '!=', 1]")
        #expect(notEqual.filters == [.field(field("a"), .notEqual, .integer(1))])
    }

    @Test func fieldPathsUseTheServerFormat() throws {
        let query = try parse("collection: c\nwhere:\n  - [stats.views, '>', 1]\n  - ['`a.b`', ==, 1]")
        #expect(query.filters == [
            .field(FieldPath(segments: ["stats", "views"]), .greaterThan, .integer(1)),
            .field(FieldPath(segments: ["a.b"]), .equal, .integer(1)),
        ])
    }

    @Test func documentKeyValuesBecomeReferences() throws {
        let query = try parse("""
            collection: stories/s1/comments
            where:
              - [__name__, ==, x]
              - [__name__, in, [y, z]]
              - [__name__, '>', other/doc]
            """)
        #expect(query.parent == path("stories/s1"))
        #expect(query.collectionID == "comments")
        #expect(query.filters == [
            .field(.documentKey, .equal, ref("stories/s1/comments/x")),
            .field(.documentKey, .in, .array([ref("stories/s1/comments/y"), ref("stories/s1/comments/z")])),
            .field(.documentKey, .greaterThan, ref("other/doc")),
        ])
    }

    @Test func nestedOrAndGroups() throws {
        let query = try parse("""
            collection: c
            where:
              - or:
                  - [a, ==, 1]
                  - and:
                      - [b, ==, 2]
                      - [c, '>', 3]
            """, clients: "[web]")
        #expect(query.filters == [
            .composite(.or, [
                .field(field("a"), .equal, .integer(1)),
                .composite(.and, [.field(field("b"), .equal, .integer(2)), .field(field("c"), .greaterThan, .integer(3))]),
            ]),
        ])
        let and = try parse("collection: c\nwhere:\n  - and:\n      - [a, ==, 1]\n      - [b, ==, 2]")
        #expect(and.filters == [.composite(.and, [.field(field("a"), .equal, .integer(1)), .field(field("b"), .equal, .integer(2))])])
    }

    @Test func orderByForms() throws {
        #expect(try parse("collection: c\norder_by: a").orderBy == [OrderBy(field("a"), .ascending)])
        #expect(try parse("collection: c\norder_by: [a, b]").orderBy == [OrderBy(field("a")), OrderBy(field("b"))])
        #expect(try parse("collection: c\norder_by: [[a, desc]]").orderBy == [OrderBy(field("a"), .descending)])
        #expect(try parse("collection: c\norder_by: [[a, descending], [b, ASC], [c]]").orderBy
            == [OrderBy(field("a"), .descending), OrderBy(field("b"), .ascending), OrderBy(field("c"), .ascending)])
        #expect(try parse("collection: c\norder_by:\n  - a\n  - [b, desc]").orderBy == [OrderBy(field("a")), OrderBy(field("b"), .descending)])
        // A direction word where a field is expected is a mistake for [[field, desc]], not a field.
        let pair = try #require(configError(config("collection: c\norder_by: [score, desc]")))
        #expect(pair.message.contains("\"desc\" in order_by is read as a field name; for a direction write [[field, desc]]"), "\(pair)")
        #expect(pair.location?.line == 8 && pair.location?.column == 27, "\(pair)")
        #expect(try parse("collection: c\norder_by: ['`desc`']").orderBy == [OrderBy(FieldPath(segments: ["desc"]))])
        let error = try #require(configError(config("collection: c\norder_by: [[a, up]]")))
        #expect(error.message.contains("direction must be asc or desc, found \"up\""))
        #expect(error.location?.line == 8)
    }

    @Test func limitAndLimitToLast() throws {
        let first = try parse("collection: c\norder_by: [a]\nlimit: 7")
        #expect(first.limit == 7)
        #expect(first.limitType == .first)
        let last = try parse("collection: c\norder_by: [a]\nlimit_to_last: 3")
        #expect(last.limit == 3)
        #expect(last.limitType == .last)
        #expect(try #require(configError(config("collection: c\nlimit: 0"))).message.contains("between 1 and 2147483647"))
    }

    @Test func cursorValueForms() throws {
        let query = try parse("""
            collection: c
            order_by: [[n, desc]]
            start_at: [5]
            end_before: 1
            """)
        #expect(query.startAt == Bound(values: [.integer(5)], inclusive: true))
        #expect(query.endAt == Bound(values: [.integer(1)], inclusive: false))
        let after = try parse("collection: c\norder_by: [n]\nstart_after: [5, b]\nend_at: [9]")
        // The second position is the implicit __name__ order: a plain id becomes a reference.
        #expect(after.startAt == Bound(values: [.integer(5), ref("c/b")], inclusive: false))
        #expect(after.endAt == Bound(values: [.integer(9)], inclusive: true))
        let error = try #require(configError(config("collection: c\norder_by: [n]\nstart_at: [1, b, 3]")))
        #expect(error.message.contains("startAt has 3 values but the query orders by only 2 fields"))
    }

    @Test func documentCursorsResolveAgainstTheStore() throws {
        let parsed = try parseConfig(config("collection: c\norder_by: [[n, desc]]\nstart_after: {document: c/b}\nend_at: {document: c/a}"))
        // While only validating, the cursor holds stand-ins of the right shape.
        #expect(parsed.bundles[0].queries[0].query.startAt == Bound(values: [.null, ref("c/b")], inclusive: false))

        var store = DocumentStore(database: demo)
        let t = timestamp("2024-01-02T00:00:00Z")
        store.insert(Document(path: path("c/a"), fields: MapValue([("n", .integer(1))]), createTime: t, updateTime: t))
        store.insert(Document(path: path("c/b"), fields: MapValue([("n", .integer(2))]), createTime: t, updateTime: t))
        let resolved = try parsed.resolvingQueries(snapshotTime: t, store: store)
        let query = resolved.bundles[0].queries[0].query
        #expect(query.startAt == Bound(values: [.integer(2), ref("c/b")], inclusive: false))
        #expect(query.endAt == Bound(values: [.integer(1), ref("c/a")], inclusive: true))
        #expect(query.orderBy == [OrderBy(field("n"), .descending)])
    }

    /// Known before reading: a query without a cursor at a document, and without a relative time
    /// unless `snapshot_time:` is set (then resolved against it). A `for_each`'s over listed
    /// values are; over values in the data, they are made once those are read.
    @Test func queriesKnownBeforeReading() throws {
        let text = """
            project: demo
            inputs: [data.ndjson]
            bundles:
              - id: b
                queries:
                  plain: {collection: c, where: [[n, '>', 1]], limit: 3}
                  absolute: {collection: c, where: [[t, '>', !timestamp 2024-01-01T00:00:00Z]]}
                  relative: {collection: c, where: [[t, '>', !timestamp now-7d]]}
                  at-document: {collection: c, order_by: [n], start_at: {document: c/a}}
                  at-values: {collection: c, order_by: [n], start_at: [2]}
              - id: "f-{value}"
                for_each: {values: [x]}
                queries:
                  "f-{value}": {collection: c, where: [[k, ==, "{value}"]]}
              - id: "g-{k}"
                for_each: {field: k, collection: c}
                queries:
                  "g-{k}": {collection: c, where: [[k, ==, "{k}"]]}
            """
        let config = try parseConfig(text)
        #expect(config.bundles[0].queries.map(\.cursorDocuments) == [[], [], [], [path("c/a")], []])
        let known = try config.queriesKnownBeforeReading()
        #expect(Set(known.keys) == ["plain", "absolute", "at-values", "f-x"])
        #expect(known["plain"] == config.bundles[0].queries[0].query)

        let pinned = try parseConfig(text.replacingOccurrences(of: "project: demo", with: "project: demo\nsnapshot_time: 2024-03-01T00:00:00Z"))
        let knownThen = try pinned.queriesKnownBeforeReading()
        #expect(Set(knownThen.keys) == ["plain", "absolute", "relative", "at-values", "f-x"])
        var store = DocumentStore(database: demo)
        store.insert(Document(path: path("c/a"), fields: MapValue([("n", .integer(1)), ("k", .string("y"))])))
        let resolved = try pinned.resolvingQueries(snapshotTime: timestamp("2024-03-01T00:00:00Z"), store: store)
        #expect(knownThen["relative"] == resolved.bundles[0].queries[2].query)
    }

    @Test func documentCursorErrors() throws {
        let outside = try #require(configError(config("collection: c\norder_by: [n]\nstart_at: {document: d/x}")))
        #expect(outside.message.contains("cursor document \"d/x\" is not in the queried collection"))
        #expect(outside.location?.line == 9)

        let parsed = try parseConfig(config("collection: c\norder_by: [n]\nstart_at: {document: c/zz}"))
        var store = DocumentStore(database: demo)
        let t = timestamp("2024-01-02T00:00:00Z")
        store.insert(Document(path: path("c/a"), fields: MapValue([("m", .integer(1))]), createTime: t, updateTime: t))
        #expect(throws: ConfigError.self) { try parsed.resolvingQueries(snapshotTime: t, store: store) }
        do {
            _ = try parsed.resolvingQueries(snapshotTime: t, store: store)
        } catch {
            #expect(error.message.contains("cursor document \"c/zz\" is not in the inputs"))
            #expect(error.location?.line == 9)
        }
        let noField = try parseConfig(config("collection: c\norder_by: [n]\nstart_at: {document: c/a}"))
        do {
            _ = try noField.resolvingQueries(snapshotTime: t, store: store)
            Issue.record("a cursor document without the ordered field was accepted")
        } catch {
            #expect(error.message.contains("has no field n"))
        }
    }

    @Test func relativeTimestampsResolveAgainstTheSnapshotTime() throws {
        let parsed = try parseConfig(config("collection: c\nwhere:\n  - [t, '>=', !timestamp now-7d]\n  - [t, <, !timestamp now+1h30m]"))
        let snapshot = timestamp("2024-03-10T12:00:00.25Z")
        let resolved = try parsed.resolvingQueries(snapshotTime: snapshot, store: DocumentStore(database: demo))
        #expect(resolved.bundles[0].queries[0].query.filters == [
            .field(field("t"), .greaterThanOrEqual, .timestamp(timestamp("2024-03-03T12:00:00.25Z"))),
            .field(field("t"), .lessThan, .timestamp(timestamp("2024-03-10T13:30:00.25Z"))),
        ])
        // The unresolved config must not have pinned the wall clock or the resolved time.
        #expect(parsed.bundles[0].queries[0].query.filters != resolved.bundles[0].queries[0].query.filters)
    }

    @Test(arguments: [
        ("now", Int64(0)), ("now-7d", -604_800), ("now+1h30m", 5_400), ("now-2w", -1_209_600), ("now+45s", 45), ("now-1d12h", -129_600),
    ])
    func relativeTimeOffsets(_ text: String, _ seconds: Int64) {
        #expect(RelativeTime.seconds(text) == seconds)
    }

    @Test(arguments: ["now-", "now-7", "now-7x", "now7d", "yesterday", "now--1d"])
    func malformedRelativeTimes(_ text: String) {
        #expect(RelativeTime.seconds(text) == nil)
    }

    @Test func collectionGroupWithParent() throws {
        let query = try parse("collection_group: comments\nparent: stories/s1\nwhere:\n  - [approved, ==, true]")
        #expect(query == Query(
            parent: path("stories/s1"), collectionID: "comments", allDescendants: true,
            filters: [.field(field("approved"), .equal, .boolean(true))]))
        let root = try parse("collection_group: comments")
        #expect(root == Query(parent: .root, collectionID: "comments", allDescendants: true))
        #expect(try #require(configError(config("collection_group: a/b"))).message.contains("collection_group takes a collection id without '/'"))
        #expect(try #require(configError(config("collection_group: comments\nparent: stories"))).message.contains("must be a document path"))
        #expect(try #require(configError(config("collection: c\nparent: stories/s1"))).message.contains("parent goes with collection_group"))
    }

    @Test func fullFriendlyQuery() throws {
        let query = try parse("""
            collection: stories
            where:
              - [published, ==, true]
              - [category, in, [tech, science]]
            order_by: [[publishedAt, desc]]
            start_after: [2024-01-01T00:00:00Z]
            limit: 30
            """)
        #expect(query == Query(
            parent: .root, collectionID: "stories",
            filters: [
                .field(field("published"), .equal, .boolean(true)),
                .field(field("category"), .in, .array([.string("tech"), .string("science")])),
            ],
            orderBy: [OrderBy(field("publishedAt"), .descending)],
            startAt: Bound(values: [.timestamp(timestamp("2024-01-01T00:00:00Z"))], inclusive: false),
            limit: 30))
    }

    @Test func rawStructuredQueryWithLimitTypeLast() throws {
        let query = try parse("""
            structured_query:
              from: [{collectionId: c}]
              where: {fieldFilter: {field: {fieldPath: n}, op: GREATER_THAN, value: {integerValue: "1"}}}
              orderBy: [{field: {fieldPath: n}, direction: DESCENDING}]
              limit: 3
            limit_type: last
            """)
        #expect(query == Query(
            parent: .root, collectionID: "c",
            filters: [.field(field("n"), .greaterThan, .integer(1))],
            orderBy: [OrderBy(field("n"), .descending)],
            limit: 3, limitType: .last))
    }

    @Test func rawStructuredQueryInJSONSyntaxWithParent() throws {
        let query = try parse("""
            parent: stories/s1
            structured_query: {"from": [{"collectionId": "comments", "allDescendants": true}], "limit": {"value": 5}}
            """)
        #expect(query == Query(parent: path("stories/s1"), collectionID: "comments", allDescendants: true, limit: 5))
        #expect(try parse("structured_query:\n  from: [{collectionId: c}]").limitType == .first)
    }

    @Test func rawStructuredQueryErrors() throws {
        let mixed = try #require(configError(config("structured_query:\n  from: [{collectionId: c}]\nlimit: 3")))
        #expect(mixed.message.contains("limit cannot be combined with structured_query"))
        let badType = try #require(configError(config("structured_query:\n  from: [{collectionId: c}]\nlimit_type: middle")))
        #expect(badType.message.contains("limit_type must be first or last"))
        let select = try #require(configError(config("structured_query:\n  from: [{collectionId: c}]\n  select: {fields: [{fieldPath: a}]}")))
        #expect(select.message.contains("cannot use select"))
        let friendlyLimitType = try #require(configError(config("collection: c\norder_by: [a]\nlimit: 3\nlimit_type: last")))
        #expect(friendlyLimitType.message.contains("limit_type belongs to structured_query"))
    }
}
