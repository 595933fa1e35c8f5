import JSONCore

extension Value {
    /// Every `*Value` key a proto3 JSON value may have.
    public static let protoKeys: Set<String> = [
        "nullValue", "booleanValue", "integerValue", "doubleValue", "timestampValue", "stringValue",
        "bytesValue", "referenceValue", "geoPointValue", "arrayValue", "mapValue",
    ]

    /// Reads a Firestore value in proto3 JSON (`{"integerValue":"1"}`), accepting every form the
    /// clients accept (bundle-format.md §4): integers as numbers or strings, doubles as numbers
    /// or "NaN"/"Infinity"/"-Infinity", timestamps as RFC 3339 (offsets normalised to UTC) or
    /// `{seconds,nanos}`, standard or URL-safe base64, relative or full reference names.
    ///
    /// - Parameter database: the database a relative reference (`users/u1`) belongs to.
    public init(protoJSON node: JSONNode, relativeTo database: DatabaseID) throws(JSONDecodingError) {
        guard case .object(let object) = node.kind else {
            throw JSONDecodingError(offset: node.offset, message: "expected a Firestore value object such as {\"stringValue\": …}, found \(node.kindDescription)")
        }
        guard object.count == 1, let member = object.members.first else {
            let found = object.isEmpty ? "an empty object" : "keys \(object.keys.map { "\"\($0)\"" }.joined(separator: ", "))"
            throw JSONDecodingError(offset: node.offset, message: "expected exactly one of \(Self.protoKeyList) in a value, found \(found)")
        }
        let value = member.value
        func fail(_ expected: String) -> JSONDecodingError {
            JSONDecodingError(offset: value.offset, message: "\(member.key) must be \(expected), found \(value.kindDescription)")
        }
        switch member.key {
        case "nullValue":
            guard value.isNull || value.stringValue == "NULL_VALUE" else { throw fail("null or \"NULL_VALUE\"") }
            self = .null
        case "booleanValue":
            guard let bool = value.boolValue else { throw fail("true or false") }
            self = .boolean(bool)
        case "integerValue":
            self = .integer(try Self.decodeInt64(value, field: "integerValue"))
        case "doubleValue":
            self = .double(try Self.decodeDouble(value, field: "doubleValue"))
        case "timestampValue":
            self = .timestamp(try Timestamp(protoJSON: value, field: "timestampValue"))
        case "stringValue":
            guard let string = value.stringValue else { throw fail("a string") }
            self = .string(string)
        case "bytesValue":
            guard let text = value.stringValue else { throw fail("a base64 string") }
            guard let bytes = Base64.decode(text) else {
                throw JSONDecodingError(offset: value.offset, message: "bytesValue must be base64 (standard or URL-safe), found \"\(text.prefix(40))\"")
            }
            self = .bytes(bytes)
        case "referenceValue":
            guard let text = value.stringValue else { throw fail("a document name string") }
            self = .reference(try Self.decodeReference(text, field: "referenceValue", offset: value.offset, relativeTo: database))
        case "geoPointValue":
            guard let point = value.objectValue else { throw fail("an object {latitude, longitude}") }
            try Self.rejectUnknownKeys(point, allowed: ["latitude", "longitude"], in: "geoPointValue", offset: value.offset)
            let latitude = try point["latitude"].map { node throws(JSONDecodingError) in try Self.decodeDouble(node, field: "latitude") } ?? 0
            let longitude = try point["longitude"].map { node throws(JSONDecodingError) in try Self.decodeDouble(node, field: "longitude") } ?? 0
            guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
                throw JSONDecodingError(offset: value.offset, message: "geoPointValue (\(latitude), \(longitude)) is outside latitude -90…90 / longitude -180…180")
            }
            self = .geoPoint(GeoPoint(latitude: latitude, longitude: longitude))
        case "arrayValue":
            guard let array = value.objectValue else { throw fail("an object {\"values\": […]}") }
            try Self.rejectUnknownKeys(array, allowed: ["values"], in: "arrayValue", offset: value.offset)
            var elements: [Value] = []
            if let values = array["values"] {
                guard let list = values.arrayValue else {
                    throw JSONDecodingError(offset: values.offset, message: "arrayValue.values must be an array, found \(values.kindDescription)")
                }
                elements.reserveCapacity(list.count)
                for element in list {
                    elements.append(try Value(protoJSON: element, relativeTo: database))
                }
            }
            self = .array(elements)
        case "mapValue":
            guard let map = value.objectValue else { throw fail("an object {\"fields\": {…}}") }
            try Self.rejectUnknownKeys(map, allowed: ["fields"], in: "mapValue", offset: value.offset)
            self = .map(try map["fields"].map { node throws(JSONDecodingError) in try MapValue(protoJSONFields: node, relativeTo: database) } ?? MapValue())
        default:
            throw JSONDecodingError(offset: member.keyOffset, message: "unknown value type \"\(member.key)\"; expected one of \(Self.protoKeyList)")
        }
    }

    private static var protoKeyList: String {
        "nullValue, booleanValue, integerValue, doubleValue, timestampValue, stringValue, bytesValue, referenceValue, geoPointValue, arrayValue, mapValue"
    }

    static func rejectUnknownKeys(_ object: JSONObject, allowed: Set<String>, in context: String, offset: Int) throws(JSONDecodingError) {
        if let unknown = object.members.first(where: { !allowed.contains($0.key) }) {
            throw JSONDecodingError(offset: unknown.keyOffset, message: "unknown key \"\(unknown.key)\" in \(context); expected \(allowed.sorted().joined(separator: " or "))")
        }
    }

    /// An int64 written as a JSON integer literal or a decimal string.
    public static func decodeInt64(_ node: JSONNode, field: String) throws(JSONDecodingError) -> Int64 {
        switch node.kind {
        case .number(let number):
            guard number.isIntegerLiteral else {
                throw JSONDecodingError(offset: node.offset, message: "\(field) must be an integer, found \(number.literal)")
            }
            guard let value = number.int64Value else {
                throw JSONDecodingError(offset: node.offset, message: "\(field) \(number.literal) does not fit in a 64-bit integer")
            }
            return value
        case .string(let text):
            guard let value = Int64(text) else {
                throw JSONDecodingError(offset: node.offset, message: "\(field) must be a decimal 64-bit integer, found \"\(text.prefix(40))\"")
            }
            return value
        default:
            throw JSONDecodingError(offset: node.offset, message: "\(field) must be an integer (a number or a decimal string), found \(node.kindDescription)")
        }
    }

    /// A double written as a JSON number or as "NaN", "Infinity", "-Infinity" (or a numeric string).
    public static func decodeDouble(_ node: JSONNode, field: String) throws(JSONDecodingError) -> Double {
        switch node.kind {
        case .number(let number):
            return number.doubleValue
        case .string(let text):
            switch text {
            case "NaN": return .nan
            case "Infinity": return .infinity
            case "-Infinity": return -.infinity
            default:
                if let number = try? JSONParser.parse(Array(text.utf8)).numberValue { return number.doubleValue }
                throw JSONDecodingError(offset: node.offset, message: "\(field) must be a number or \"NaN\", \"Infinity\", \"-Infinity\", found \"\(text.prefix(40))\"")
            }
        default:
            throw JSONDecodingError(offset: node.offset, message: "\(field) must be a number, found \(node.kindDescription)")
        }
    }

    /// The document name `text` (full, or relative to `database`), read from `field` at
    /// `offset`; an invalid one throws `<field>: <what is wrong>`.
    public static func decodeReference(
        _ text: String, field: String, offset: Int, relativeTo database: DatabaseID
    ) throws(JSONDecodingError) -> ResourceName {
        do throws(PathError) {
            return try ResourceName(documentName: text, relativeTo: database)
        } catch {
            throw JSONDecodingError(offset: offset, message: "\(field): \(error.message)")
        }
    }

    /// Writes the value as proto3 JSON in the form every client accepts (bundle-format.md §4,
    /// "emit this"): integers as JSON integer literals, doubles with `.` or `e`, NaN/±Infinity
    /// as strings, nine-digit `Z` timestamps, padded standard base64, both geopoint coordinates,
    /// `{}` for empty arrays and maps, map keys in UTF-8 order.
    public func encode(into writer: inout JSONWriter) {
        switch self {
        case .null:
            writer.raw("{\"nullValue\":null}")
        case .boolean(let b):
            writer.raw(b ? "{\"booleanValue\":true}" : "{\"booleanValue\":false}")
        case .integer(let i):
            writer.raw("{\"integerValue\":")
            writer.integer(i)
            writer.byte(UInt8(ascii: "}"))
        case .double(let d):
            writer.raw("{\"doubleValue\":")
            writer.double(d)
            writer.byte(UInt8(ascii: "}"))
        case .timestamp(let t):
            writer.raw("{\"timestampValue\":")
            writer.string(t.rfc3339)
            writer.byte(UInt8(ascii: "}"))
        case .string(let s):
            writer.raw("{\"stringValue\":")
            writer.string(s)
            writer.byte(UInt8(ascii: "}"))
        case .bytes(let b):
            writer.raw("{\"bytesValue\":")
            writer.string(Base64.encode(b))
            writer.byte(UInt8(ascii: "}"))
        case .reference(let name):
            writer.raw("{\"referenceValue\":")
            writer.string(name)
            writer.byte(UInt8(ascii: "}"))
        case .geoPoint(let g):
            writer.raw("{\"geoPointValue\":{\"latitude\":")
            writer.double(g.latitude)
            writer.raw(",\"longitude\":")
            writer.double(g.longitude)
            writer.raw("}}")
        case .array(let values):
            if values.isEmpty {
                writer.raw("{\"arrayValue\":{}}")
            } else {
                writer.raw("{\"arrayValue\":{\"values\":[")
                for (index, element) in values.enumerated() {
                    if index > 0 { writer.byte(UInt8(ascii: ",")) }
                    element.encode(into: &writer)
                }
                writer.raw("]}}")
            }
        case .map(let map):
            if map.isEmpty {
                writer.raw("{\"mapValue\":{}}")
            } else {
                writer.raw("{\"mapValue\":{\"fields\":")
                map.encodeFields(into: &writer)
                writer.raw("}}")
            }
        }
    }

    /// The value's proto3 JSON as a string (for messages, tests and `inspect`).
    public var protoJSONString: String {
        var writer = JSONWriter()
        encode(into: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

extension MapValue {
    /// Reads a proto3 JSON `fields` object (`{"name": {"stringValue": …}, …}`).
    public init(protoJSONFields node: JSONNode, relativeTo database: DatabaseID) throws(JSONDecodingError) {
        guard case .object(let object) = node.kind else {
            throw JSONDecodingError(offset: node.offset, message: "fields must be an object of field name → value, found \(node.kindDescription)")
        }
        var fields: [Field] = []
        fields.reserveCapacity(object.count)
        for member in object.members {
            fields.append(Field(key: member.key, value: try Value(protoJSON: member.value, relativeTo: database)))
        }
        // The parser already rejected duplicate keys.
        self.init(distinctKeys: fields)
    }

    /// Writes `{"key":value,…}` with keys in UTF-8 order (`{}` when empty).
    public func encodeFields(into writer: inout JSONWriter) {
        writer.byte(UInt8(ascii: "{"))
        for (index, field) in fields.enumerated() {
            if index > 0 { writer.byte(UInt8(ascii: ",")) }
            writer.key(field.key)
            field.value.encode(into: &writer)
        }
        writer.byte(UInt8(ascii: "}"))
    }
}

extension Timestamp {
    /// Reads an RFC 3339 string or a `{seconds, nanos}` object (numbers or strings; a missing
    /// part is 0), as the Android and iOS clients do.
    public init(protoJSON node: JSONNode, field: String) throws(JSONDecodingError) {
        switch node.kind {
        case .string(let text):
            do {
                try self.init(rfc3339: text)
            } catch {
                throw JSONDecodingError(offset: node.offset, message: "\(field): \(error.message)")
            }
        case .object(let object):
            try Value.rejectUnknownKeys(object, allowed: ["seconds", "nanos"], in: field, offset: node.offset)
            let seconds = try object["seconds"].map { n throws(JSONDecodingError) in try Value.decodeInt64(n, field: "\(field).seconds") } ?? 0
            let nanos = try object["nanos"].map { n throws(JSONDecodingError) in try Value.decodeInt64(n, field: "\(field).nanos") } ?? 0
            guard let nanos32 = Int32(exactly: nanos) else {
                throw JSONDecodingError(offset: node.offset, message: "\(field).nanos \(nanos) is out of range")
            }
            do {
                try self.init(seconds: seconds, nanos: nanos32)
            } catch {
                throw JSONDecodingError(offset: node.offset, message: "\(field): \(error.message)")
            }
        default:
            throw JSONDecodingError(offset: node.offset, message: "\(field) must be an RFC 3339 string or {seconds, nanos}, found \(node.kindDescription)")
        }
    }
}
