import FirestoreModel
import JSONCore

/// Reads StructuredQuery proto3 JSON the way the JS client rebuilds a bundled query
/// (`convertQueryTargetToQuery` in firebase-js-sdk `remote/serializer.ts`), rejecting what
/// the clients cannot evaluate. Unknown keys are ignored, as every client but Python does.
struct StructuredQueryDecoder {
    /// The database of the query; relative reference values are resolved against it.
    let database: DatabaseID

    func decodeQuery(_ node: JSONNode, parent: ResourcePath) throws(JSONDecodingError) -> Query {
        let object = try self.object(node, "structuredQuery")
        guard let fromNode = object["from"] else {
            throw JSONDecodingError(offset: node.offset, message: "structuredQuery has no \"from\"; expected exactly one [{\"collectionId\": …}] (a query without a collection is not supported)")
        }
        let from = try array(fromNode, "from")
        guard from.count == 1 else {
            throw JSONDecodingError(offset: fromNode.offset, message: "from must have exactly one entry {\"collectionId\": …}, found \(from.count) (Android and iOS reject anything else)")
        }
        let selector = try self.object(from[0], "from[0]")
        guard let collectionNode = selector["collectionId"], let collectionID = collectionNode.stringValue, !collectionID.isEmpty else {
            throw JSONDecodingError(offset: selector["collectionId"]?.offset ?? from[0].offset, message: "from[0].collectionId must be a non-empty string, found \(selector["collectionId"].map(describe) ?? "nothing")")
        }
        let allDescendants = try selector["allDescendants"].map { node throws(JSONDecodingError) in try bool(node, "from[0].allDescendants") } ?? false

        var query = Query(parent: parent, collectionID: collectionID, allDescendants: allDescendants)
        if let whereNode = object["where"] {
            let filter = try decodeFilter(whereNode, "where")
            if case .composite(.and, let children) = filter {
                query.filters = children
            } else {
                query.filters = [filter]
            }
        }
        if let orderNode = object["orderBy"] {
            query.orderBy = try array(orderNode, "orderBy").map { node throws(JSONDecodingError) in try decodeOrder(node) }
        }
        query.startAt = try object["startAt"].map { node throws(JSONDecodingError) in
            let (values, before) = try decodeCursor(node, "startAt")
            return Bound(values: values, inclusive: before)
        }
        query.endAt = try object["endAt"].map { node throws(JSONDecodingError) in
            let (values, before) = try decodeCursor(node, "endAt")
            return Bound(values: values, inclusive: !before)
        }
        query.limit = try object["limit"].map { node throws(JSONDecodingError) in try decodeLimit(node) }
        query.offset = try object["offset"].map { node throws(JSONDecodingError) in try int32(node, "offset") }
        query.select = try object["select"].map { node throws(JSONDecodingError) in try decodeProjection(node) }
        return query
    }

    // MARK: - Filters

    func decodeFilter(_ node: JSONNode, _ context: String) throws(JSONDecodingError) -> Filter {
        let object = try self.object(node, context)
        let kinds = object.members.filter { ["fieldFilter", "unaryFilter", "compositeFilter"].contains($0.key) }
        guard kinds.count == 1, let kind = kinds.first else {
            let found = kinds.isEmpty ? "keys \(object.keys)" : "\(kinds.count) of them"
            throw JSONDecodingError(offset: node.offset, message: "\(context) must have exactly one of fieldFilter, unaryFilter or compositeFilter, found \(found)")
        }
        switch kind.key {
        case "fieldFilter": return try decodeFieldFilter(kind.value, "\(context).fieldFilter")
        case "unaryFilter": return try decodeUnaryFilter(kind.value, "\(context).unaryFilter")
        default: return try decodeCompositeFilter(kind.value, "\(context).compositeFilter")
        }
    }

    private func decodeFieldFilter(_ node: JSONNode, _ context: String) throws(JSONDecodingError) -> Filter {
        let object = try self.object(node, context)
        let field = try decodeFieldReference(object["field"], in: node, "\(context).field")
        let op = try decodeEnum(object["op"], in: node, "\(context).op", as: Filter.Operator.self)
        guard let valueNode = object["value"] else {
            throw JSONDecodingError(offset: node.offset, message: "\(context) has no \"value\"; expected a Firestore value such as {\"integerValue\": \"1\"}")
        }
        let value: Value
        do throws(JSONDecodingError) {
            value = try Value(protoJSON: valueNode, relativeTo: database)
        } catch {
            throw JSONDecodingError(offset: error.offset, message: "\(context).value: \(error.message)")
        }
        if op.takesList, !isArray(value) {
            throw JSONDecodingError(offset: valueNode.offset, message: "\(context): '\(op.symbol)' needs an arrayValue of candidates, found a value of type \(value.typeName)")
        }
        if field.isDocumentKey {
            try checkKeyFilter(op, value, offset: valueNode.offset, context)
        }
        return .field(field, op, value)
    }

    /// The clients build `__name__` filters from document keys and fail on anything else.
    private func checkKeyFilter(_ op: Filter.Operator, _ value: Value, offset: Int, _ context: String) throws(JSONDecodingError) {
        switch op {
        case .arrayContains, .arrayContainsAny:
            throw JSONDecodingError(offset: offset, message: "\(context): '\(op.symbol)' on __name__ cannot be evaluated by the clients; a document key is not an array")
        case .in, .notIn:
            if let bad = value.listElements.first(where: { !isReference($0) }) {
                throw JSONDecodingError(offset: offset, message: "\(context): '\(op.symbol)' on __name__ needs referenceValues, found a value of type \(bad.typeName)")
            }
        case .lessThan, .lessThanOrEqual, .equal, .notEqual, .greaterThan, .greaterThanOrEqual:
            if !isReference(value) {
                throw JSONDecodingError(offset: offset, message: "\(context): a filter on __name__ needs a referenceValue, found a value of type \(value.typeName)")
            }
        }
    }

    private func decodeUnaryFilter(_ node: JSONNode, _ context: String) throws(JSONDecodingError) -> Filter {
        let object = try self.object(node, context)
        let op = try decodeEnum(object["op"], in: node, "\(context).op", as: Filter.UnaryOperator.self)
        let field = try decodeFieldReference(object["field"], in: node, "\(context).field")
        if field.isDocumentKey {
            throw JSONDecodingError(offset: node.offset, message: "\(context): \(op.rawValue) on __name__ cannot be evaluated by the clients; a document key is never null or NaN")
        }
        return .unary(field, op)
    }

    private func decodeCompositeFilter(_ node: JSONNode, _ context: String) throws(JSONDecodingError) -> Filter {
        let object = try self.object(node, context)
        let op = try decodeEnum(object["op"], in: node, "\(context).op", as: Filter.CompositeOperator.self)
        guard let filtersNode = object["filters"] else {
            throw JSONDecodingError(offset: node.offset, message: "\(context) has no \"filters\"; expected an array of filters")
        }
        var filters: [Filter] = []
        for (index, child) in try array(filtersNode, "\(context).filters").enumerated() {
            filters.append(try decodeFilter(child, "\(context).filters[\(index)]"))
        }
        return .composite(op, filters)
    }

    // MARK: - Order, cursors, limit, projection

    private func decodeOrder(_ node: JSONNode) throws(JSONDecodingError) -> OrderBy {
        let object = try self.object(node, "orderBy[]")
        let field = try decodeFieldReference(object["field"], in: node, "orderBy[].field")
        guard let directionNode = object["direction"] else { return OrderBy(field, .ascending) }
        guard let text = directionNode.stringValue, let direction = OrderBy.Direction(rawValue: text) else {
            throw JSONDecodingError(offset: directionNode.offset, message: "orderBy[].direction must be \"ASCENDING\" or \"DESCENDING\", found \(describe(directionNode)) (the clients disagree on other values: Android reads them as DESCENDING, JS as ASCENDING)")
        }
        return OrderBy(field, direction)
    }

    private func decodeCursor(_ node: JSONNode, _ context: String) throws(JSONDecodingError) -> ([Value], Bool) {
        let object = try self.object(node, context)
        let before = try object["before"].map { n throws(JSONDecodingError) in try bool(n, "\(context).before") } ?? false
        var values: [Value] = []
        if let valuesNode = object["values"] {
            for element in try array(valuesNode, "\(context).values") {
                do throws(JSONDecodingError) {
                    values.append(try Value(protoJSON: element, relativeTo: database))
                } catch {
                    throw JSONDecodingError(offset: error.offset, message: "\(context).values: \(error.message)")
                }
            }
        }
        return (values, before)
    }

    /// `limit` is an `Int32Value`: the clients accept a bare number or `{"value": n}`.
    private func decodeLimit(_ node: JSONNode) throws(JSONDecodingError) -> Int32 {
        if let wrapper = node.objectValue {
            guard let value = wrapper["value"] else {
                throw JSONDecodingError(offset: node.offset, message: "limit object has no \"value\"; expected a number or {\"value\": n}")
            }
            return try int32(value, "limit.value")
        }
        return try int32(node, "limit")
    }

    private func decodeProjection(_ node: JSONNode) throws(JSONDecodingError) -> [FieldPath] {
        let object = try self.object(node, "select")
        guard let fieldsNode = object["fields"] else { return [] }
        var fields: [FieldPath] = []
        for field in try array(fieldsNode, "select.fields") {
            fields.append(try decodeFieldReference(field, in: fieldsNode, "select.fields[]"))
        }
        return fields
    }

    // MARK: - Primitives

    /// `{"fieldPath": "<server format>"}`.
    private func decodeFieldReference(_ node: JSONNode?, in parent: JSONNode, _ context: String) throws(JSONDecodingError) -> FieldPath {
        guard let node else {
            throw JSONDecodingError(offset: parent.offset, message: "\(context) is missing; expected {\"fieldPath\": \"…\"}")
        }
        let object = try self.object(node, context)
        guard let pathNode = object["fieldPath"], let text = pathNode.stringValue else {
            throw JSONDecodingError(offset: object["fieldPath"]?.offset ?? node.offset, message: "\(context).fieldPath must be a string, found \(object["fieldPath"].map(describe) ?? "nothing")")
        }
        do throws(PathError) {
            return try FieldPath(serverFormat: text)
        } catch {
            throw JSONDecodingError(offset: pathNode.offset, message: "\(context).fieldPath: \(error.message)")
        }
    }

    private func decodeEnum<E: RawRepresentable>(_ node: JSONNode?, in parent: JSONNode, _ context: String, as type: E.Type) throws(JSONDecodingError) -> E
    where E.RawValue == String, E: CaseIterable {
        guard let node else {
            throw JSONDecodingError(offset: parent.offset, message: "\(context) is missing; expected one of \(names(E.self))")
        }
        guard let text = node.stringValue, let value = E(rawValue: text) else {
            throw JSONDecodingError(offset: node.offset, message: "\(context) must be one of \(names(E.self)), found \(describe(node))")
        }
        return value
    }

    private func names<E: RawRepresentable & CaseIterable>(_ type: E.Type) -> String where E.RawValue == String {
        E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
    }

    private func object(_ node: JSONNode, _ context: String) throws(JSONDecodingError) -> JSONObject {
        guard let object = node.objectValue else {
            throw JSONDecodingError(offset: node.offset, message: "\(context) must be an object, found \(node.kindDescription)")
        }
        return object
    }

    private func array(_ node: JSONNode, _ context: String) throws(JSONDecodingError) -> [JSONNode] {
        guard let array = node.arrayValue else {
            throw JSONDecodingError(offset: node.offset, message: "\(context) must be an array, found \(node.kindDescription)")
        }
        return array
    }

    private func bool(_ node: JSONNode, _ context: String) throws(JSONDecodingError) -> Bool {
        guard let value = node.boolValue else {
            throw JSONDecodingError(offset: node.offset, message: "\(context) must be true or false, found \(describe(node))")
        }
        return value
    }

    private func int32(_ node: JSONNode, _ context: String) throws(JSONDecodingError) -> Int32 {
        guard let number = node.numberValue, let value = number.int64Value.flatMap({ Int32(exactly: $0) }) else {
            throw JSONDecodingError(offset: node.offset, message: "\(context) must be a 32-bit integer number, found \(describe(node))")
        }
        return value
    }

    private func isArray(_ value: Value) -> Bool {
        if case .array = value { return true }
        return false
    }

    private func isReference(_ value: Value) -> Bool {
        if case .reference = value { return true }
        return false
    }

    /// A found value for messages: strings and numbers verbatim, other kinds by name.
    private func describe(_ node: JSONNode) -> String {
        switch node.kind {
        case .string(let text): return "\"\(text.prefix(60))\""
        case .number(let number): return number.literal
        default: return node.kindDescription
        }
    }
}
