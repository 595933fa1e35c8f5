import FirestoreModel
import JSONCore

/// Checks a `bundledQuery` against what JS, Android, iOS and Python all rebuild the same way
/// (bundle-format.md §5 and §10): one `from`, AND-only flat filters, explicit directions, plain
/// integer limits, no `offset`/`select`/`findNearest`, a parent in the bundle's database.
enum BundledQueryCheck {
    private static let fieldOperators: Set<String> = [
        "LESS_THAN", "LESS_THAN_OR_EQUAL", "GREATER_THAN", "GREATER_THAN_OR_EQUAL", "EQUAL", "NOT_EQUAL",
        "ARRAY_CONTAINS", "ARRAY_CONTAINS_ANY", "IN", "NOT_IN",
    ]
    private static let unaryOperators: Set<String> = ["IS_NAN", "IS_NULL", "IS_NOT_NAN", "IS_NOT_NULL"]

    /// Checks pre-encoded JSON for a writer: it must also be compact and ASCII-only (§10).
    /// Returns the first problem as a sentence, or nil.
    static func problem(withEncoded bytes: [UInt8], database: DatabaseID, audience: BundleAudience) -> String? {
        let node: JSONNode
        do {
            node = try JSONParser.parse(bytes)
        } catch {
            return "bundledQuery is not valid JSON (byte \(error.offset): \(error.message))"
        }
        let scan = JSONSpan.scan(bytes, from: 0)
        if scan.hasWhitespace || scan.hasNonASCII {
            return "bundledQuery must be compact, ASCII-only JSON (§10)"
        }
        var log = ProblemLog(database: database, audience: audience)
        check(node, log: &log)
        return log.errors.first?.message
    }

    /// Checks the `bundledQuery` node of a `namedQuery` element.
    static func check(_ node: JSONNode, log: inout ProblemLog) {
        guard let object = node.objectValue else {
            return log.error(.wrongType, at: node.offset, "bundledQuery must be an object, found \(node.kindDescription): every client fails to read it")
        }
        log.checkKeys(object, allowed: ["parent", "structuredQuery", "limitType"], in: "bundledQuery")
        checkParent(object["parent"], in: node, log: &log)
        var hasLimit = false
        if let query = object["structuredQuery"] {
            hasLimit = checkStructuredQuery(query, log: &log)
        } else {
            log.error(.missingField, at: node.offset, "bundledQuery has no structuredQuery: JS, Android and iOS require it")
        }
        guard let limitType = object["limitType"] else { return }
        switch limitType.stringValue {
        case "FIRST":
            break
        case "LAST":
            if !hasLimit {
                log.error(.unsupportedQuery, at: limitType.offset, "limitType LAST without a limit: JS only debug-asserts on it and the clients disagree on the results")
            }
        default:
            log.error(.unsupportedQuery, at: limitType.offset, "limitType must be \"FIRST\" or \"LAST\": Android and iOS fail on any other value")
        }
    }

    private static func checkParent(_ parent: JSONNode?, in node: JSONNode, log: inout ProblemLog) {
        guard let parent else {
            return log.error(.missingField, at: node.offset, "bundledQuery has no parent: JS, Android and iOS require it")
        }
        guard let text = parent.stringValue, let name = try? ResourceName(parsing: text), !name.path.isCollection else {
            let found = parent.stringValue.map { "\"\($0.prefix(80))\"" } ?? parent.kindDescription
            return log.error(.invalidName, at: parent.offset, "bundledQuery.parent \(found) is not projects/{p}/databases/{d}/documents[/{col}/{doc}…]: every client rejects the whole bundle (JS asserts on an invalid resource name, Android and iOS report \"not valid for current instance\")")
        }
        log.checkDatabase(of: name, at: parent.offset, what: "bundledQuery.parent \"\(text)\"")
    }

    /// Returns whether the query has a limit.
    private static func checkStructuredQuery(_ node: JSONNode, log: inout ProblemLog) -> Bool {
        guard let query = node.objectValue else {
            log.error(.wrongType, at: node.offset, "structuredQuery must be an object, found \(node.kindDescription): every client fails to read it")
            return false
        }
        for member in query.members {
            switch member.key {
            case "from": checkFrom(member.value, log: &log)
            case "where": checkFilter(member.value, allowComposite: true, log: &log)
            case "orderBy": checkOrderBy(member.value, log: &log)
            case "startAt", "endAt": checkCursor(member.value, name: member.key, log: &log)
            case "limit": checkLimit(member.value, log: &log)
            case "offset", "select", "findNearest":
                log.error(.unsupportedQuery, at: member.keyOffset, "structuredQuery.\(member.key) is not supported in bundles: Android and iOS fail to load the bundle and JS silently ignores it")
            default:
                log.error(.unknownKey, at: member.keyOffset, "unknown key \"\(member.key)\" in structuredQuery: Python's proto3 JSON parser rejects unknown fields and the other clients ignore it")
            }
        }
        if query["from"] == nil {
            log.error(.unsupportedQuery, at: node.offset, "structuredQuery has no from: Android and iOS need exactly one from clause")
        }
        return query["limit"] != nil
    }

    private static func checkFrom(_ node: JSONNode, log: inout ProblemLog) {
        guard let list = node.arrayValue, list.count == 1, let from = list.first?.objectValue else {
            return log.error(.unsupportedQuery, at: node.offset, "structuredQuery.from must be an array of exactly one {collectionId}: Android and iOS support only a single from clause (JS asserts on more)")
        }
        log.checkKeys(from, allowed: ["collectionId", "allDescendants"], in: "from")
        guard let id = from["collectionId"]?.stringValue, !id.isEmpty, !id.utf8.contains(UInt8(ascii: "/")) else {
            return log.error(.unsupportedQuery, at: list[0].offset, "from.collectionId must be a non-empty collection id without '/': Android and iOS require it")
        }
        if let all = from["allDescendants"], all.boolValue == nil {
            log.error(.wrongType, at: all.offset, "from.allDescendants must be a boolean: iOS and Python fail on anything else")
        }
    }

    private static func checkFilter(_ node: JSONNode, allowComposite: Bool, log: inout ProblemLog) {
        guard let filter = node.objectValue, filter.count == 1, let member = filter.members.first else {
            return log.error(.unsupportedQuery, at: node.offset, "a filter must be an object with exactly one of fieldFilter, unaryFilter, compositeFilter: every client fails on anything else")
        }
        let body = member.value
        guard let object = body.objectValue else {
            return log.error(.wrongType, at: body.offset, "\(member.key) must be an object: every client fails on anything else")
        }
        switch member.key {
        case "fieldFilter":
            log.checkKeys(object, allowed: ["field", "op", "value"], in: "fieldFilter")
            checkFieldReference(object["field"], in: body, log: &log)
            checkOperator(object["op"], allowed: fieldOperators, in: body, log: &log)
            if let value = object["value"] {
                StrictValueCheck.check(value, log: &log)
            } else {
                log.error(.missingField, at: body.offset, "fieldFilter has no value: every client fails to rebuild the filter")
            }
        case "unaryFilter":
            log.checkKeys(object, allowed: ["op", "field"], in: "unaryFilter")
            checkFieldReference(object["field"], in: body, log: &log)
            checkOperator(object["op"], allowed: unaryOperators, in: body, log: &log)
        case "compositeFilter" where allowComposite || log.audience == .webOnly:
            log.checkKeys(object, allowed: ["op", "filters"], in: "compositeFilter")
            switch (object["op"]?.stringValue, log.audience) {
            case ("AND", _), ("OR", .webOnly):
                break
            case ("OR", .allClients):
                log.error(.unsupportedQuery, at: body.offset, "compositeFilter op \"OR\": Android and iOS only support AND composite filters (OR fails the load); only a web-only site may use it")
            default:
                log.error(.unsupportedQuery, at: body.offset, "compositeFilter op must be \"AND\" or \"OR\": every client fails on anything else")
            }
            guard let filters = object["filters"]?.arrayValue, !filters.isEmpty else {
                return log.error(.unsupportedQuery, at: body.offset, "compositeFilter needs a non-empty filters array: the clients cannot rebuild it")
            }
            for child in filters { checkFilter(child, allowComposite: false, log: &log) }
        case "compositeFilter":
            log.error(.unsupportedQuery, at: body.offset, "a compositeFilter nested in another: iOS only accepts fieldFilter and unaryFilter children")
        default:
            log.error(.unsupportedQuery, at: member.keyOffset, "unknown filter kind \"\(member.key)\": every client fails on it")
        }
    }

    private static func checkFieldReference(_ node: JSONNode?, in parent: JSONNode, log: inout ProblemLog) {
        guard let node else {
            return log.error(.missingField, at: parent.offset, "a filter or order has no field: every client fails to rebuild it")
        }
        guard let object = node.objectValue, let path = object["fieldPath"]?.stringValue, !path.isEmpty else {
            return log.error(.wrongType, at: node.offset, "field must be {\"fieldPath\": \"non-empty path\"}: every client fails on anything else")
        }
        log.checkKeys(object, allowed: ["fieldPath"], in: "field")
    }

    private static func checkOperator(_ node: JSONNode?, allowed: Set<String>, in parent: JSONNode, log: inout ProblemLog) {
        guard let op = node?.stringValue, allowed.contains(op) else {
            return log.error(.unsupportedQuery, at: node?.offset ?? parent.offset, "filter op must be one of \(allowed.sorted().joined(separator: ", ")): JS fails with INTERNAL ASSERTION FAILED (c54a) and Android/iOS reject unknown operators")
        }
    }

    private static func checkOrderBy(_ node: JSONNode, log: inout ProblemLog) {
        guard let orders = node.arrayValue else {
            return log.error(.wrongType, at: node.offset, "orderBy must be an array: every client fails on anything else")
        }
        for order in orders {
            guard let object = order.objectValue else {
                log.error(.wrongType, at: order.offset, "an orderBy entry must be an object {field, direction}: every client fails on anything else")
                continue
            }
            log.checkKeys(object, allowed: ["field", "direction"], in: "orderBy")
            checkFieldReference(object["field"], in: order, log: &log)
            let direction = object["direction"]?.stringValue
            if direction != "ASCENDING" && direction != "DESCENDING" {
                log.error(.unsupportedQuery, at: object["direction"]?.offset ?? order.offset, "orderBy direction must be written as \"ASCENDING\" or \"DESCENDING\": Android reads anything else (even a missing direction) as DESCENDING while JS and iOS read ASCENDING")
            }
        }
    }

    private static func checkCursor(_ node: JSONNode, name: String, log: inout ProblemLog) {
        guard let cursor = node.objectValue else {
            return log.error(.wrongType, at: node.offset, "\(name) must be an object {values, before}: every client fails on anything else")
        }
        log.checkKeys(cursor, allowed: ["values", "before"], in: name)
        if let before = cursor["before"], before.boolValue == nil {
            log.error(.wrongType, at: before.offset, "\(name).before must be a boolean: iOS and Python fail on anything else")
        }
        guard let values = cursor["values"] else { return }
        guard let list = values.arrayValue else {
            return log.error(.wrongType, at: values.offset, "\(name).values must be an array: every client fails on anything else")
        }
        for value in list { StrictValueCheck.check(value, log: &log) }
    }

    private static func checkLimit(_ node: JSONNode, log: inout ProblemLog) {
        guard let number = node.numberValue else {
            let wrapped = node.objectValue?["value"] != nil
            return log.error(.unsupportedQuery, at: node.offset, wrapped
                ? "limit is a {\"value\": n} wrapper: Python deserialize_bundle accepts only a plain integer (\"int() argument must be … not 'dict'\")"
                : "limit must be a plain integer, found \(node.kindDescription): Python and iOS fail on it")
        }
        guard let limit = number.int64Value, (0...Int64(Int32.max)).contains(limit) else {
            return log.error(.unsupportedQuery, at: node.offset, "limit \(number.literal) is not an integer in 0…2147483647: every client reads limit as an Int32")
        }
    }
}
