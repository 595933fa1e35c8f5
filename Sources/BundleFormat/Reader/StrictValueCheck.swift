import FirestoreModel
import JSONCore

/// Checks a proto3 JSON Firestore value against the forms every client reads the same way
/// (bundle-format.md §4), logging each deviation with the client that fails on it.
///
/// It only checks; ``MapValue/init(protoJSONFields:relativeTo:)`` builds the value afterwards.
enum StrictValueCheck {
    /// 2^53: beyond it, Android's string-to-long conversion goes through a double.
    private static let exactStringIntegerLimit: Int64 = 1 << 53

    /// Checks a `fields` object (field name → value).
    static func checkFields(_ node: JSONNode, context: String, log: inout ProblemLog) {
        guard let object = node.objectValue else {
            log.error(.wrongType, at: node.offset, "\(context) must be an object of field name → value, found \(node.kindDescription): every client fails to read it")
            return
        }
        for member in object.members {
            check(member.value, log: &log)
        }
    }

    /// Checks one value.
    static func check(_ node: JSONNode, log: inout ProblemLog) {
        guard let object = node.objectValue, object.count == 1, let member = object.members.first else {
            log.error(.invalidValue, at: node.offset, "a value must be an object with exactly one key such as {\"stringValue\": …}, found \(node.kindDescription): Android and iOS reject it and Python rejects anything but one known key")
            return
        }
        let value = member.value
        func fail(_ message: String) {
            log.error(.invalidValue, at: value.offset, "\(member.key) \(message)")
        }
        switch member.key {
        case "nullValue":
            if !(value.isNull || value.stringValue == "NULL_VALUE") {
                fail("must be null or \"NULL_VALUE\", found \(value.kindDescription): Python rejects it")
            }
        case "booleanValue":
            if value.boolValue == nil { fail("must be a JSON boolean, found \(value.kindDescription): iOS rejects it and JS keeps it raw") }
        case "integerValue":
            integerProblem(value).map(fail)
        case "doubleValue":
            doubleProblem(value).map(fail)
        case "timestampValue":
            _ = StrictTimestamp.read(value, field: "timestampValue", log: &log)
        case "stringValue":
            if value.stringValue == nil { fail("must be a string, found \(value.kindDescription): every client rejects it") }
        case "bytesValue":
            bytesProblem(value).map(fail)
        case "referenceValue":
            checkReference(value, log: &log)
        case "geoPointValue":
            checkGeoPoint(value, log: &log)
        case "arrayValue":
            guard let array = value.objectValue else { return fail("must be an object {\"values\": […]}, found \(value.kindDescription): every client rejects it") }
            log.checkKeys(array, allowed: ["values"], in: "arrayValue")
            guard let values = array["values"] else { return }
            guard let list = values.arrayValue else { return fail("values must be an array, found \(values.kindDescription): every client rejects it") }
            for element in list { check(element, log: &log) }
        case "mapValue":
            guard let map = value.objectValue else { return fail("must be an object {\"fields\": {…}}, found \(value.kindDescription): every client rejects it") }
            log.checkKeys(map, allowed: ["fields"], in: "mapValue")
            if let fields = map["fields"] { checkFields(fields, context: "mapValue.fields", log: &log) }
        default:
            log.error(.invalidValue, at: member.keyOffset, "unknown value type \"\(member.key)\": Android and iOS reject it, Python rejects the unknown field, and JS cannot type it")
        }
    }

    private static func integerProblem(_ value: JSONNode) -> String? {
        switch value.kind {
        case .number(let number):
            if !number.isIntegerLiteral {
                return "\(number.literal) is not an integer literal: iOS fails on it"
            }
            return number.int64Value == nil ? "\(number.literal) does not fit in 64 bits: Android, iOS and Python fail on it" : nil
        case .string(let text):
            guard let integer = Int64(text) else {
                return "\"\(text.prefix(40))\" is not a decimal 64-bit integer: JS silently reads NaN, iOS and Python fail"
            }
            guard integer.magnitude <= exactStringIntegerLimit.magnitude else {
                return "\"\(text)\" is a string beyond ±2^53: Android converts integer strings through a double and silently changes the value; write it as a JSON integer literal"
            }
            return nil
        default:
            return "must be an integer, found \(value.kindDescription): every client fails to read it"
        }
    }

    private static func doubleProblem(_ value: JSONNode) -> String? {
        switch value.kind {
        case .number(let number):
            return number.literal == "-0" ? "is the integer literal -0: Android and iOS parse it as integer 0 and lose the sign; write -0.0" : nil
        case .string(let text):
            return ["NaN", "Infinity", "-Infinity"].contains(text) ? nil
                : "\"\(text.prefix(40))\" is a string other than \"NaN\", \"Infinity\" or \"-Infinity\": write finite doubles as JSON numbers (Python's proto3 parser is not guaranteed to read other strings)"
        default:
            return "must be a number or \"NaN\"/\"Infinity\"/\"-Infinity\", found \(value.kindDescription): every client fails to read it"
        }
    }

    private static func bytesProblem(_ value: JSONNode) -> String? {
        guard let text = value.stringValue else { return "must be a base64 string, found \(value.kindDescription): every client fails to read it" }
        if text.utf8.contains(where: { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }) {
            return "uses the URL-safe base64 alphabet: the browser's atob and Android's Base64.DEFAULT read only the standard alphabet"
        }
        return Base64.decode(text) == nil ? "\"\(text.prefix(40))\" is not valid base64: every client fails to decode it" : nil
    }

    private static func checkReference(_ value: JSONNode, log: inout ProblemLog) {
        guard let text = value.stringValue else {
            return log.error(.invalidValue, at: value.offset, "referenceValue must be a document name string, found \(value.kindDescription): every client fails to read it")
        }
        guard let name = try? ResourceName(parsing: text), name.path.isDocument else {
            return log.error(.invalidValue, at: value.offset, "referenceValue \"\(text.prefix(80))\" is not a full document name projects/{p}/databases/{d}/documents/{col}/{doc}: iOS fails with \"Tried to deserialize an invalid key\"")
        }
        log.checkDatabase(of: name, at: value.offset, what: "referenceValue \"\(text)\"")
    }

    private static func checkGeoPoint(_ value: JSONNode, log: inout ProblemLog) {
        func fail(_ message: String) {
            log.error(.invalidValue, at: value.offset, "geoPointValue \(message)")
        }
        guard let point = value.objectValue else { return fail("must be an object {latitude, longitude}, found \(value.kindDescription): every client fails to read it") }
        log.checkKeys(point, allowed: ["latitude", "longitude"], in: "geoPointValue")
        for (key, limit) in [("latitude", 90.0), ("longitude", 180.0)] {
            guard let coordinate = point[key] else {
                fail("has no \(key): Android reads a missing coordinate as NaN while the other clients read 0; always write both")
                continue
            }
            guard let number = coordinate.numberValue else {
                fail("\(key) must be a number, found \(coordinate.kindDescription): iOS and Python fail on it")
                continue
            }
            if !(-limit...limit).contains(number.doubleValue) {
                fail("\(key) \(number.literal) is outside ±\(Int(limit)): not a valid Firestore GeoPoint")
            }
        }
    }
}
