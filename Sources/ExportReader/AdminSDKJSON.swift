import FirestoreModel
import JSONCore

/// The JSON that `JSON.stringify` makes of Admin SDK (nodejs-firestore) values, which every
/// Node-based export format writes in some form.
///
/// Each reader returns nil when the object does not have the shape's exact key set, and throws
/// when it has the keys but not valid contents (a shape that is recognised is never silently
/// read as a map).
enum AdminSDKJSON {
    /// `{"_seconds", "_nanoseconds"}` (a `Timestamp`); with `unprefixed`, also
    /// `{"seconds", "nanoseconds"}` as node-firestore-import-export wrote it before v1.
    static func timestamp(_ object: JSONObject, at offset: Int, unprefixed: Bool = false) throws(JSONDecodingError) -> Timestamp? {
        guard let (seconds, nanos) = pair(object, ("_seconds", "_nanoseconds")) ?? (unprefixed ? pair(object, ("seconds", "nanoseconds")) : nil) else {
            return nil
        }
        let secondsValue = try Value.decodeInt64(seconds.value, field: seconds.key)
        let nanosValue = try Value.decodeInt64(nanos.value, field: nanos.key)
        guard let nanos32 = Int32(exactly: nanosValue) else {
            throw JSONDecodingError(offset: nanos.value.offset, message: "\(nanos.key) must be 0…999999999, found \(nanosValue)")
        }
        do {
            return try Timestamp(seconds: secondsValue, nanos: nanos32)
        } catch {
            throw JSONDecodingError(offset: offset, message: "invalid timestamp: \(error.message)")
        }
    }

    /// `{"_latitude", "_longitude"}` (a `GeoPoint`); with `unprefixed`, also `{"latitude", "longitude"}`.
    static func geoPoint(_ object: JSONObject, at offset: Int, unprefixed: Bool = false) throws(JSONDecodingError) -> GeoPoint? {
        guard let (latitude, longitude) = pair(object, ("_latitude", "_longitude")) ?? (unprefixed ? pair(object, ("latitude", "longitude")) : nil) else {
            return nil
        }
        let point = GeoPoint(
            latitude: try Value.decodeDouble(latitude.value, field: latitude.key),
            longitude: try Value.decodeDouble(longitude.value, field: longitude.key))
        guard (-90...90).contains(point.latitude), (-180...180).contains(point.longitude) else {
            throw JSONDecodingError(offset: offset, message: "geopoint (\(point.latitude), \(point.longitude)) is outside latitude -90…90 / longitude -180…180")
        }
        return point
    }

    /// `{"type": "Buffer", "data": [137, 80, …]}`: a Node `Buffer`.
    static func buffer(_ object: JSONObject) throws(JSONDecodingError) -> [UInt8]? {
        guard let (type, data) = pair(object, ("type", "data")), type.value.stringValue.map({ UTF8Order.equal($0, "Buffer") }) == true,
              let elements = data.value.arrayValue
        else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(elements.count)
        for element in elements {
            bytes.append(try byte(element))
        }
        return bytes
    }

    /// `{"0": 137, "1": 80, …}`: what a `Buffer` becomes when an exporter copies its keys.
    static func indexMap(_ object: JSONObject) throws(JSONDecodingError) -> [UInt8]? {
        guard object.members.enumerated().allSatisfy({ UTF8Order.equal($1.key, String($0)) }) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(object.count)
        for member in object.members {
            bytes.append(try byte(member.value))
        }
        return bytes
    }

    /// `{"_firestore"?, "_path": {"segments": ["users", "lurie"]}, "_converter"?}`: a
    /// `DocumentReference`. `_firestore` (the exporting project) is ignored: the documents
    /// of such an export carry no project either, so both are read as relative to the same one.
    static func referencePath(_ object: JSONObject) throws(JSONDecodingError) -> ResourcePath? {
        guard let path = object["_path"], object.members.allSatisfy({ referenceKeys.contains($0.key) }) else { return nil }
        guard let segmentList = path.objectValue?["segments"]?.arrayValue else {
            throw JSONDecodingError(offset: path.offset, message: "a serialised DocumentReference needs \"_path\": {\"segments\": [\"collection\", \"id\", …]}")
        }
        var segments: [String] = []
        for segment in segmentList {
            guard let text = segment.stringValue, !text.isEmpty, !text.contains("/") else {
                throw JSONDecodingError(offset: segment.offset, message: "a path segment must be a non-empty string without '/', found \(segment.kindDescription)")
            }
            segments.append(text)
        }
        let resourcePath = ResourcePath(segments: segments)
        guard resourcePath.isDocument else {
            throw JSONDecodingError(offset: segmentList.first?.offset ?? path.offset, message: "the reference \"\(resourcePath)\" does not name a document (it needs an even number of path segments)")
        }
        return resourcePath
    }

    private static let referenceKeys: Set<String> = ["_firestore", "_path", "_converter"]

    /// The two members of an object whose keys are exactly `keys`, in that order.
    private static func pair(_ object: JSONObject, _ keys: (String, String)) -> (JSONObject.Member, JSONObject.Member)? {
        guard object.count == 2, let first = object.member(keys.0), let second = object.member(keys.1) else { return nil }
        return (first, second)
    }

    private static func byte(_ node: JSONNode) throws(JSONDecodingError) -> UInt8 {
        guard let value = node.numberValue?.int64Value, let byte = UInt8(exactly: value) else {
            throw JSONDecodingError(offset: node.offset, message: "a byte must be an integer 0…255, found \(node.numberValue?.literal ?? node.kindDescription)")
        }
        return byte
    }
}
