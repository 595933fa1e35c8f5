import FirestoreModel
import JSONCore

/// Reads the untyped JSON of the Node-based export formats into Firestore values.
///
/// Plain JSON maps to the obvious types: null, booleans, strings, arrays, maps; a number
/// written as an integer literal that fits 64 bits is an integer, any other number a double.
/// Objects in one of the format's ``UntypedJSONDialect`` shapes are the values they stand for.
/// A value at a typed field path (an input's hints, a backfire record's lists) is converted to
/// that type instead, or the read fails at that value.
struct UntypedValueDecoder: Sendable {
    let dialect: UntypedJSONDialect
    /// The input's hints, or nil when it has none.
    let hints: TypedFieldTree?

    init(dialect: UntypedJSONDialect, hints: TypeHints) {
        self.dialect = dialect
        self.hints = TypedFieldTree(hints: hints)
    }

    /// The fields of a document object without its `reserved` member (the one holding its
    /// subcollections, if the format nests them).
    ///
    /// - Parameters:
    ///   - record: the typed paths the record itself lists (firestore-backfire), if any.
    ///   - database: the database relative references belong to.
    func fields(
        of object: JSONObject,
        skipping reserved: String? = nil,
        record: TypedFieldTree? = nil,
        relativeTo database: DatabaseID
    ) throws(JSONDecodingError) -> MapValue {
        try map(object, skipping: reserved, cursor: TypeCursor(record: record, hints: hints), database: database)
    }

    private func map(_ object: JSONObject, skipping reserved: String?, cursor: TypeCursor, database: DatabaseID) throws(JSONDecodingError) -> MapValue {
        var fields: [(String, Value)] = []
        fields.reserveCapacity(object.count)
        for member in object.members where !(reserved.map { UTF8Order.equal($0, member.key) } ?? false) {
            fields.append((member.key, try value(member.value, cursor: cursor.child(member.key), database: database)))
        }
        return MapValue(fields)
    }

    private func value(_ node: JSONNode, cursor: TypeCursor, database: DatabaseID) throws(JSONDecodingError) -> Value {
        if let typed = cursor.typed, node.arrayValue == nil {
            return try convert(node, to: typed, relativeTo: database)
        }
        switch node.kind {
        case .null:
            return .null
        case .bool(let bool):
            return .boolean(bool)
        case .string(let string):
            return .string(string)
        case .number(let number):
            return number.int64Value.map(Value.integer) ?? .double(number.doubleValue)
        case .array(let elements):
            var values: [Value] = []
            values.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                values.append(try value(element, cursor: cursor.element(index), database: database))
            }
            return .array(values)
        case .object(let object):
            if let recognised = try recognise(object, at: node.offset, relativeTo: database) {
                return recognised
            }
            return .map(try map(object, skipping: nil, cursor: cursor, database: database))
        }
    }

    /// The value `object` stands for when it has one of the dialect's shapes.
    func recognise(_ object: JSONObject, at offset: Int, relativeTo database: DatabaseID) throws(JSONDecodingError) -> Value? {
        if dialect.contains(.datatypeTags), let tagged = try DatatypeTag.value(object, at: offset, relativeTo: database) {
            return tagged
        }
        if dialect.contains(.secondsObjects), let timestamp = try AdminSDKJSON.timestamp(object, at: offset) {
            return .timestamp(timestamp)
        }
        if dialect.contains(.latitudeObjects), let point = try AdminSDKJSON.geoPoint(object, at: offset) {
            return .geoPoint(point)
        }
        if dialect.contains(.bufferObjects), let bytes = try AdminSDKJSON.buffer(object) {
            return .bytes(bytes)
        }
        if dialect.contains(.referenceObjects), let path = try AdminSDKJSON.referencePath(object) {
            return .reference(ResourceName(database: database, path: path))
        }
        return nil
    }
}
