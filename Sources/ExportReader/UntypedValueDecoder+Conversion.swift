import FirestoreModel
import JSONCore

extension UntypedValueDecoder {
    /// `node` as the type a hint or a record list gives it. `null` stays null (a field may hold
    /// null in some documents; NaN and ±Infinity were exported as null and cannot come back).
    func convert(_ node: JSONNode, to typed: TypedFieldTree.Typed, relativeTo database: DatabaseID) throws(JSONDecodingError) -> Value {
        if node.isNull { return .null }
        if let object = node.objectValue, let recognised = try recognise(object, at: node.offset, relativeTo: database) {
            guard recognised.typeName == typed.kind.typeName else {
                throw JSONDecodingError(
                    offset: node.offset,
                    message: "\(typed.origin) names this value, but it is a \(recognised.typeName), not a \(typed.kind.typeName)")
            }
            return recognised
        }
        do throws(JSONDecodingError) {
            if let converted = try Self.convert(node, to: typed.kind, relativeTo: database) {
                return converted
            }
        } catch {
            throw JSONDecodingError(offset: error.offset, message: "\(typed.origin): \(error.message)")
        }
        throw JSONDecodingError(
            offset: node.offset,
            message: "\(typed.origin) names this value, which cannot be read as a \(typed.kind.typeName): "
                + "expected \(typed.kind.acceptedShapes), found \(Self.describe(node))")
    }

    /// `node` converted to `kind`, or nil when it has none of the shapes `kind` accepts.
    private static func convert(_ node: JSONNode, to kind: TypeHints.Kind, relativeTo database: DatabaseID) throws(JSONDecodingError) -> Value? {
        switch (kind, node.kind) {
        case (.doubles, .number(let number)):
            return .double(number.doubleValue)
        case (.timestamps, .object(let object)):
            return try AdminSDKJSON.timestamp(object, at: node.offset, unprefixed: true).map(Value.timestamp)
        case (.timestamps, .string(let text)):
            do {
                return .timestamp(try Timestamp(rfc3339: text))
            } catch {
                throw JSONDecodingError(offset: node.offset, message: error.message)
            }
        case (.geopoints, .object(let object)):
            return try AdminSDKJSON.geoPoint(object, at: node.offset, unprefixed: true).map(Value.geoPoint)
        case (.references, .string(let text)):
            return .reference(try Value.decodeReference(text, field: "reference", offset: node.offset, relativeTo: database))
        case (.references, .object(let object)):
            return try AdminSDKJSON.referencePath(object).map { .reference(ResourceName(database: database, path: $0)) }
        case (.bytes, .object(let object)):
            if let bytes = try AdminSDKJSON.buffer(object) {
                return .bytes(bytes)
            }
            return try AdminSDKJSON.indexMap(object).map(Value.bytes)
        case (.bytes, .string(let text)):
            return Base64.decode(text).map(Value.bytes)
        default:
            return nil
        }
    }

    /// "the number 7", "the string "abc"", "an object with keys "a", "b"", for messages.
    private static func describe(_ node: JSONNode) -> String {
        switch node.kind {
        case .number(let number): return "the number \(number.literal)"
        case .string(let text): return "the string \"\(text.prefix(40))\""
        case .object(let object): return RESTRecordDecoder.describeKeys(of: object)
        default: return node.kindDescription
        }
    }
}

extension TypeHints.Kind {
    /// The JSON a value of this kind may be written as, for messages.
    var acceptedShapes: String {
        switch self {
        case .doubles:
            return "a number"
        case .timestamps:
            return "{\"_seconds\", \"_nanoseconds\"} or an RFC 3339 string"
        case .geopoints:
            return "{\"_latitude\", \"_longitude\"} or {\"latitude\", \"longitude\"}"
        case .references:
            return "a document path such as \"users/lurie\", a full document name, or {\"_path\": {\"segments\": […]}}"
        case .bytes:
            return "Node Buffer JSON {\"type\": \"Buffer\", \"data\": […]}, an index map {\"0\": 137, …} or a base64 string"
        }
    }
}
