import FirestoreModel
import JSONCore

/// node-firestore-import-export's tagged values (`serializeSpecialTypes` in its helpers.ts):
/// `{"__datatype__": "timestamp", "value": {"_seconds", "_nanoseconds"} | "RFC 3339"}`,
/// `{"__datatype__": "geopoint", "value": {"_latitude", "_longitude"}}` and
/// `{"__datatype__": "documentReference", "value": "users/lurie"}`. There is no other tag.
enum DatatypeTag {
    static let key = "__datatype__"
    static let datatypes = ["timestamp", "geopoint", "documentReference"]

    /// The value an object tagged with `__datatype__` stands for, or nil when it has no tag.
    static func value(_ object: JSONObject, at offset: Int, relativeTo database: DatabaseID) throws(JSONDecodingError) -> Value? {
        guard let tag = object.member(key) else { return nil }
        guard object.count == 2, let value = object["value"] else {
            throw JSONDecodingError(offset: offset, message: "a value tagged with \"__datatype__\" must have exactly the keys \"__datatype__\" and \"value\"")
        }
        // Matched byte-exactly, then switched over our own constant.
        let datatype = tag.value.stringValue.flatMap { text in datatypes.first { UTF8Order.equal($0, text) } }
        switch datatype {
        case "timestamp"?:
            if let text = value.stringValue {
                do {
                    return .timestamp(try Timestamp(rfc3339: text))
                } catch {
                    throw JSONDecodingError(offset: value.offset, message: error.message)
                }
            }
            if let object = value.objectValue, let timestamp = try AdminSDKJSON.timestamp(object, at: value.offset, unprefixed: true) {
                return .timestamp(timestamp)
            }
            throw expected("{\"_seconds\", \"_nanoseconds\"} or an RFC 3339 string", for: "timestamp", found: value)
        case "geopoint"?:
            if let object = value.objectValue, let point = try AdminSDKJSON.geoPoint(object, at: value.offset, unprefixed: true) {
                return .geoPoint(point)
            }
            throw expected("{\"_latitude\", \"_longitude\"}", for: "geopoint", found: value)
        case "documentReference"?:
            guard let text = value.stringValue else {
                throw expected("a document path string", for: "documentReference", found: value)
            }
            return .reference(try Value.decodeReference(text, field: "documentReference", offset: value.offset, relativeTo: database))
        default:
            let found = tag.value.stringValue.map { "\"\($0)\"" } ?? tag.value.kindDescription
            throw JSONDecodingError(
                offset: tag.value.offset,
                message: "unknown __datatype__ \(found); expected one of \(datatypes.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
    }

    private static func expected(_ shape: String, for datatype: String, found: JSONNode) -> JSONDecodingError {
        JSONDecodingError(offset: found.offset, message: "the value of a \"\(datatype)\" __datatype__ must be \(shape), found \(found.kindDescription)")
    }
}
