import FirestoreModel
import QueryEngine
import Testing
@testable import PipelineLanguage

/// A Firestore value from a Swift literal, as a spec document written in the console holds it.
func specValue(_ literal: Any?) -> Value {
    switch literal {
    case nil: return .null
    case let flag as Bool: return .boolean(flag)
    case let number as Int: return .integer(Int64(number))
    case let number as Double: return .double(number)
    case let text as String: return .string(text)
    case let items as [Any?]: return .array(items.map(specValue))
    case let map as [String: Any?]: return .map(MapValue(map.map { ($0.key, specValue($0.value)) }))
    default: fatalError("no Firestore value for \(String(describing: literal))")
    }
}

/// The spec document `bundles/<id>` with `fields`.
func specDocument(_ id: String, _ fields: [String: Any?], collection: String = "bundles") -> Document {
    guard case .map(let map) = specValue(fields) else { fatalError() }
    return Document(path: path("\(collection)/\(id)"), fields: map)
}

private func field(_ text: String) -> FieldPath {
    try! FieldPath(serverFormat: text)
}

/// The query `queries.q` of a spec with `query` and `params`, for `values`.
private func specQuery(_ query: [String: Any?], params: [String: Any?] = [:], values: [String: SpecParameterValue] = [:]) throws -> Query {
    let spec = try ExtensionSpec(specDocument("s", ["queries": ["q": query], "params": params]))
    return try SpecFilling(spec: spec, values: values, database: demo).query(spec.queries[0])
}

/// The message of the error filling in `queries.q` throws.
private func specQueryError(_ query: [String: Any?], params: [String: Any?] = [:], values: [String: SpecParameterValue] = [:]) -> String {
    do {
        _ = try specQuery(query, params: params, values: values)
        Issue.record("the spec was accepted")
        return ""
    } catch {
        return (error as? ConfigError)?.message ?? "\(error)"
    }
}

@Suite struct ExtensionSpecQueryTests {
    // The queries the extension's own tests build (functions/__tests__/bundle.test.ts), with
    // the Admin SDK's semantics: conditions in any order, limits and cursors not ordered.

    @Test func aCollectionWithoutConditions() throws {
        #expect(try specQuery(["collection": "test-coll", "conditions": []]) == Query(collectionID: "test-coll"))
    }

    @Test func aCollectionGroup() throws {
        #expect(try specQuery(["collection": "test-coll", "collectionGroupQuery": true]) == Query(collectionID: "test-coll", allDescendants: true))
    }

    @Test func offsetAndLimitBeforeTheFilterAndOrder() throws {
        let query = try specQuery(["collection": "test-coll", "conditions": [
            ["offset": 199], ["limit": 10], ["where": ["field1", "!=", 123.9]], ["orderBy": ["field1"]],
        ]])
        #expect(query == Query(
            collectionID: "test-coll", filters: [.field(field("field1"), .notEqual, .double(123.9))], orderBy: [OrderBy(field("field1"))],
            limit: 10, offset: 199))
    }

    @Test func aSubcollectionWithInDescendingCursorsAndLimitToLast() throws {
        let query = try specQuery(["collection": "test-coll/doc-a/coll-ab", "conditions": [
            ["where": ["field1", "in", ["a", "d", "e"]]], ["orderBy": ["field1", "desc"]], ["startAt": "a"], ["endBefore": "f"], ["limitToLast": 10],
        ]])
        #expect(query == Query(
            parent: path("test-coll/doc-a"), collectionID: "coll-ab",
            filters: [.field(field("field1"), .in, specValue(["a", "d", "e"]))], orderBy: [OrderBy(field("field1"), .descending)],
            startAt: Bound(values: [.string("a")], inclusive: true), endAt: Bound(values: [.string("f")], inclusive: false),
            limit: 10, limitType: .last))
    }

    @Test func parametersInTheFieldTheValueAndTheLimit() throws {
        let query = try specQuery(
            ["collection": "test-coll/doc-a/coll-ab", "conditions": [
                ["where": ["$field", "array-contains", "$contains"]], ["orderBy": ["$field"]], ["limitToLast": "$limit"],
            ]],
            params: ["field": ["type": "string", "required": true], "limit": ["type": "integer"], "contains": ["type": "string-array"]],
            values: ["field": .text("field1"), "limit": .text("10"), "contains": .list(["a", "d", "e"])])
        #expect(query == Query(
            parent: path("test-coll/doc-a"), collectionID: "coll-ab",
            filters: [.field(field("field1"), .arrayContains, specValue(["a", "d", "e"]))], orderBy: [OrderBy(field("field1"))],
            limit: 10, limitType: .last))
    }

    @Test func booleanAndFloatParameters() throws {
        let query = try specQuery(
            ["collection": "test-coll", "conditions": [
                ["where": ["$field", "!=", "$value"]], ["where": ["$otherField", "==", "$floatValue"]], ["orderBy": ["$field"]],
            ]],
            params: ["field": ["type": "string", "required": true], "otherField": ["type": "string"], "floatValue": ["type": "float"], "value": ["type": "boolean"]],
            values: ["field": .text("field1"), "otherField": .text("otherField"), "floatValue": .text("3.0"), "value": .text("false")])
        // A whole float goes out as the Admin SDK sends the JavaScript number 3: an integer.
        #expect(query == Query(
            collectionID: "test-coll",
            filters: [.field(field("field1"), .notEqual, .boolean(false)), .field(field("otherField"), .equal, .integer(3))],
            orderBy: [OrderBy(field("field1"))]))
    }

    @Test func everyParameterType() throws {
        let cases: [(type: String, value: SpecParameterValue, expected: Value)] = [
            ("string", .text("7"), .string("7")),
            ("integer", .text("-12"), .integer(-12)),
            ("float", .text("2.5"), .double(2.5)),
            ("float", .text("4"), .integer(4)),
            ("boolean", .text("true"), .boolean(true)),
            ("string-array", .list(["a", "b"]), specValue(["a", "b"])),
            ("integer-array", .list(["1", "2"]), specValue([1, 2])),
            ("float-array", .list(["1.5", "2"]), .array([.double(1.5), .integer(2)])),
            ("integer-array", .text("5"), specValue([5])),
        ]
        for (type, value, expected) in cases {
            let query = try specQuery(
                ["collection": "c", "conditions": [["where": ["f", "==", "$p"]]]], params: ["p": ["type": type]], values: ["p": value])
            #expect(query.filters == [.field(field("f"), .equal, expected)], "\(type) \(value)")
        }
    }

    @Test(arguments: ["in", "not-in", "array-contains-any"])
    func aStringValueOfAListOperatorIsSplitOnCommas(op: String) throws {
        let query = try specQuery(
            ["collection": "c", "conditions": [["where": ["f", op, "$p"]]]], params: ["p": ["type": "string"]],
            values: ["p": .text(#"1,2.5,'x',"y",12px,z,"#)])
        // A part is the number parseFloat reads in it, else its text less one pair of quotes.
        let expected = specValue([1, 2.5, "x", "y", 12, "z", ""])
        #expect(query.filters == [.field(field("f"), try #require(QueryConfigParser.operators[op]), expected)])
    }

    @Test func aLiteralStringOfAListOperatorIsSplitToo() throws {
        let query = try specQuery(["collection": "c", "conditions": [["where": ["f", "in", "a,3"]]]])
        #expect(query.filters == [.field(field("f"), .in, specValue(["a", 3]))])
    }

    @Test func aStringOfAnotherOperatorIsKept() throws {
        let query = try specQuery(["collection": "c", "conditions": [["where": ["f", "==", "a,3"]]]])
        #expect(query.filters == [.field(field("f"), .equal, .string("a,3"))])
    }

    @Test func nullAndLaterLimitsAndCursors() throws {
        let query = try specQuery(["collection": "c", "conditions": [
            ["where": ["f", "==", nil]], ["orderBy": ["g"]], ["limit": 5], ["limitToLast": 2], ["startAfter": 1], ["startAt": 2], ["endAt": 9],
        ]])
        #expect(query == Query(
            collectionID: "c", filters: [.unary(field("f"), .isNull)], orderBy: [OrderBy(field("g"))],
            startAt: Bound(values: [.integer(2)], inclusive: true), endAt: Bound(values: [.integer(9)], inclusive: true), limit: 2, limitType: .last))
    }

    @Test func conditionsTheFunctionSkipsForBeingFalse() throws {
        let query = try specQuery(["collection": "c", "conditions": [["orderBy": ["g"]], ["limit": 0], ["startAt": 0], ["offset": 0]]])
        #expect(query == Query(collectionID: "c", orderBy: [OrderBy(field("g"))]))
    }

    @Test func aDocumentIDCursorIsAReference() throws {
        let query = try specQuery(["collection": "c", "conditions": [["orderBy": ["__name__"]], ["startAfter": "d1"]]])
        #expect(query.startAt == Bound(values: [.reference(ResourceName(database: demo, path: path("c/d1")))], inclusive: false))
    }

    @Test func pathParameters() throws {
        let spec = try ExtensionSpec(specDocument("s", [
            "docs": ["users/$UID/friends/$FRIEND"], "params": ["UID": ["type": "string"], "FRIEND": ["type": "string"]],
        ]))
        let filling = SpecFilling(spec: spec, values: ["UID": .text("user1"), "FRIEND": .text("friend1")], database: demo)
        #expect(try filling.path(spec.documents[0], at: "docs[0]") == path("users/user1/friends/friend1"))
    }

    @Test func aPathValueWithASlashOrEmptyIsRefused() throws {
        let spec = try ExtensionSpec(specDocument("s", [
            "docs": ["users/$UID/friends/$FRIEND"], "params": ["UID": ["type": "string"], "FRIEND": ["type": "string"]],
        ]))
        let slash = SpecFilling(spec: spec, values: ["UID": .text("user/private/data"), "FRIEND": .text("f")], database: demo)
        #expect(throws: ConfigError.self) { try slash.path(spec.documents[0], at: "docs[0]") }
        let empty = SpecFilling(spec: spec, values: ["UID": .text(""), "FRIEND": .text("f")], database: demo)
        #expect(throws: ConfigError.self) { try empty.path(spec.documents[0], at: "docs[0]") }
        let missing = SpecFilling(spec: spec, values: [:], database: demo)
        #expect(throws: ConfigError.self) { try missing.path(spec.documents[0], at: "docs[0]") }
    }

    @Test func aCollectionPathParameter() throws {
        let query = try specQuery(
            ["collection": "stores/$city/products"], params: ["city": ["type": "string", "required": true]], values: ["city": .text("austin")])
        #expect(query == Query(parent: path("stores/austin"), collectionID: "products"))
        let error = specQueryError(
            ["collection": "stores/$city/products"], params: ["city": ["type": "string", "required": true]], values: ["city": .text("austin/private/salaries")])
        #expect(error.contains("holds '/'"))
        #expect(error.contains("bundle spec bundles/s, queries.q.collection"))
    }
}

@Suite struct ExtensionSpecErrorTests {
    /// Every error names the spec document and the condition.
    private func expectError(_ message: String, _ contains: String...) {
        #expect(message.hasPrefix("bundle spec bundles/s, queries.q.conditions[0]"), "\(message)")
        for part in contains { #expect(message.contains(part), "\(message)") }
    }

    @Test func aConditionWithTwoKeysOrNone() {
        expectError(specQueryError(["collection": "c", "conditions": [["limit": 1, "offset": 2]]]), "exactly one key, found limit, offset")
        expectError(specQueryError(["collection": "c", "conditions": [[:]]]), "exactly one key, found none")
    }

    @Test func anUnknownConditionOrOperator() {
        expectError(specQueryError(["collection": "c", "conditions": [["limt": 1]]]), "unknown condition \"limt\"", "\"limit\"")
        expectError(specQueryError(["collection": "c", "conditions": [["where": ["f", "=", 1]]]]), "unknown operator \"=\"", "{where: [\"f\", \"=\", 1]}")
    }

    @Test func aParameterNeverDeclared() {
        expectError(specQueryError(["collection": "c", "conditions": [["where": ["f", "==", "$city"]]]]), "\"$city\" names a parameter the spec never declares")
    }

    @Test func aRequiredParameterWithNoValue() {
        expectError(
            specQueryError(["collection": "c", "conditions": [["where": ["f", "==", "$city"]]]], params: ["city": ["required": true]]),
            "the required parameter city has no value", "extension: params: s: city")
    }

    @Test func aTypeThatDoesNotConvert() {
        let query: [String: Any?] = ["collection": "c", "conditions": [["where": ["f", "==", "$p"]]]]
        for (type, text, element) in [("integer", "12px", "integer"), ("float", "x", "float"), ("boolean", "yes", "boolean"), ("integer-array", "1.5", "integer")] {
            expectError(specQueryError(query, params: ["p": ["type": type]], values: ["p": .text(text)]), "is of type \(element), and \"\(text)\"")
        }
        expectError(specQueryError(query, params: ["p": ["type": "string"]], values: ["p": .list(["a", "b"])]), "takes one value")
    }

    @Test func aFilterAfterACursorOrACursorWithoutOrder() {
        let afterCursor = specQueryError(["collection": "c", "conditions": [["orderBy": ["f"]], ["startAt": 1], ["where": ["f", "==", 1]]]])
        #expect(afterCursor.contains("conditions[2]") && afterCursor.contains("after a cursor"))
        expectError(specQueryError(["collection": "c", "conditions": [["startAt": 1]]]), "needs an orderBy")
    }

    @Test func aBadDirectionOrLimit() {
        expectError(specQueryError(["collection": "c", "conditions": [["orderBy": ["f", "up"]]]]), "\"asc\" or \"desc\"")
        expectError(specQueryError(["collection": "c", "conditions": [["limit": -1]]]), "whole number")
    }

    @Test func theSpecShape() {
        #expect(throws: ConfigError.self) { try ExtensionSpec(specDocument("s", ["params": [:]])) }
        #expect(throws: ConfigError.self) { try ExtensionSpec(specDocument("s", ["docs": ["a/b"], "extra": 1])) }
        #expect(throws: ConfigError.self) { try ExtensionSpec(specDocument("s", ["docs": ["a/b"], "params": ["p": ["type": "date"]]])) }
        #expect(throws: ConfigError.self) { try ExtensionSpec(specDocument("s", ["docs": ["a/b"], "clientCache": "soon"])) }
    }

    @Test func cachesAndUnusedKeys() throws {
        let spec = try ExtensionSpec(specDocument("s", ["docs": ["a/b"], "clientCache": "300", "serverCache": 600, "fileCache": 60, "notBefore": nil]))
        #expect(spec.clientCache == 300 && spec.serverCache == 600)
        #expect(spec.unusedKeys == ["fileCache", "notBefore"])
    }
}

@Suite struct SpecNumberTests {
    @Test func parseFloatReadsTheLeadingNumber() {
        #expect(SpecNumber.parseFloatPrefix("12px") == 12)
        #expect(SpecNumber.parseFloatPrefix("  -1.5e2x") == -150)
        #expect(SpecNumber.parseFloatPrefix(".5") == 0.5)
        #expect(SpecNumber.parseFloatPrefix("5.") == 5)
        #expect(SpecNumber.parseFloatPrefix("1e") == 1)
        #expect(SpecNumber.parseFloatPrefix("Infinity") == .infinity)
        #expect(SpecNumber.parseFloatPrefix("x1") == nil)
        #expect(SpecNumber.parseFloatPrefix(".") == nil)
        #expect(SpecNumber.parseFloatPrefix("") == nil)
    }

    @Test func numbersGoOutAsTheAdminSDKSendsThem() {
        #expect(SpecNumber.value(3.0) == .integer(3))
        #expect(SpecNumber.value(3.5) == .double(3.5))
        #expect(SpecNumber.value(-0.0) == .double(-0.0))
        #expect(SpecNumber.value(1e300) == .double(1e300))
    }
}
