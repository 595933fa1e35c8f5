import FirestoreModel

/// One `Property` of a datastore v3 `EntityProto`: a named value, or one element of an array
/// (`multiple`), with the `meaning` that tells a timestamp from an integer, a map from a string,
/// and bytes from text.
///
/// The mapping follows Google's `datastore_pbs.py` (v3 → v1), which is how Firestore reads
/// these files back: meaning 24 is an empty array, 7 (GD_WHEN) a timestamp in microseconds
/// (an integer when out of the timestamp range), 19 (ENTITY_PROTO) a map encoded as a nested
/// `EntityProto`, 14/16 (BLOB/BYTESTRING) bytes, any point a geopoint, and an empty value null.
/// What Firestore cannot hold (users, compressed values, namespaces, text that is not UTF-8)
/// is an error rather than a guess.
struct EntityProperty {
    /// The meanings Firestore's exports use (`entity.proto` `Property.Meaning`).
    enum Meaning: UInt64 {
        case none = 0
        case timestamp = 7
        case geoPoint = 9
        case blob = 14
        case text = 15
        case byteString = 16
        case entityProto = 19
        case emptyList = 24
    }

    var name: [UInt8]
    var multiple: Bool
    var value: Value
    /// Where the property starts in the record.
    var offset: Int

    /// Reads a `Property` message whose bytes `reader` covers; `depth` counts the maps around it.
    init(_ reader: inout ProtoReader, at offset: Int, depth: Int) throws(ProtoError) {
        var meaning = Meaning.none, name: [UInt8]?, multiple = false
        var content: (tag: ProtoReader.Tag, reader: ProtoReader)?
        while let tag = try reader.nextTag() {
            switch tag.field {
            case 1:
                try ProtoReader.expect(tag, .varint, "meaning")
                let raw = try reader.readVarint()
                guard let known = Meaning(rawValue: raw) else {
                    throw ProtoError(offset: tag.offset, "unknown property meaning \(raw); expected one Firestore exports use (0, 7, 9, 14, 15, 16, 19, 24)")
                }
                meaning = known
            case 2:
                let uri = try EntityKey.text(&reader, tag, "meaning_uri")
                guard uri.isEmpty else {
                    throw ProtoError(offset: tag.offset, "a property with meaning_uri \"\(uri)\" (a compressed or App Engine-specific value), which Firestore does not have")
                }
            case 3:
                try ProtoReader.expect(tag, .lengthDelimited, "name")
                name = Array(try reader.readBytes())
            case 4:
                try ProtoReader.expect(tag, .varint, "multiple")
                multiple = try reader.readVarint() != 0
            case 5:
                try ProtoReader.expect(tag, .lengthDelimited, "value")
                content = (tag, try reader.readMessage())
            case 6, 7:
                try reader.skip(tag)  // `stashed`, `computed`: index bookkeeping, no data
            default:
                throw EntityKey.unknown(tag, in: "a property")
            }
        }
        guard let name else { throw ProtoError(offset: offset, "a property without a name") }
        guard String(validating: name, as: UTF8.self) != nil else {
            throw ProtoError(offset: offset, "a property name that is not valid UTF-8")
        }
        guard var content else { throw ProtoError(offset: offset, "property \"\(String(decoding: name, as: UTF8.self))\" has no value") }
        self.name = name
        self.multiple = multiple
        self.offset = offset
        value = try Self.value(&content.reader, meaning: meaning, depth: depth, at: content.tag.offset)
        if meaning == .emptyList, multiple {
            throw ProtoError(offset: offset, "property \"\(displayName)\" is an element of an array (multiple) with the empty-array meaning 24")
        }
    }

    /// The name for messages (valid UTF-8 once the property is read).
    var displayName: String { String(decoding: name, as: UTF8.self) }

    /// Reads a `PropertyValue` message and maps it to a Firestore value by `meaning`.
    private static func value(_ reader: inout ProtoReader, meaning: Meaning, depth: Int, at offset: Int) throws(ProtoError) -> Value {
        var found: (Value, ProtoReader.Tag)?
        func set(_ value: Value, _ tag: ProtoReader.Tag) throws(ProtoError) {
            if let (_, first) = found {
                throw ProtoError(offset: tag.offset, "a value with both field \(first.field) and field \(tag.field); expected one")
            }
            found = (value, tag)
        }
        while let tag = try reader.nextTag() {
            switch tag.field {
            case 1:
                try ProtoReader.expect(tag, .varint, "int64Value")
                try set(integerOrTimestamp(Int64(bitPattern: try reader.readVarint()), meaning: meaning, tag: tag), tag)
            case 2:
                try ProtoReader.expect(tag, .varint, "booleanValue")
                try set(.boolean(try reader.readVarint() != 0), tag)
            case 3:
                try ProtoReader.expect(tag, .lengthDelimited, "stringValue")
                try set(try stringValue(&reader, meaning: meaning, depth: depth, tag: tag), tag)
            case 4:
                try ProtoReader.expect(tag, .fixed64, "doubleValue")
                try set(.double(Double(bitPattern: try reader.readFixed64())), tag)
            case 5:
                try ProtoReader.expect(tag, .startGroup, "pointvalue")
                try set(.geoPoint(try point(&reader)), tag)
            case 12:
                try ProtoReader.expect(tag, .startGroup, "referencevalue")
                let name = try reader.readGroup(12) { group throws(ProtoError) in try EntityKey.decodeReferenceValue(&group, at: tag.offset) }
                try set(.reference(name), tag)
            case 8:
                throw ProtoError(offset: tag.offset, "a User value (App Engine users API), which Firestore does not have")
            default:
                throw EntityKey.unknown(tag, in: "a property value")
            }
        }
        try check(found?.0, against: meaning, tag: found?.1, at: offset)
        return found?.0 ?? (meaning == .emptyList ? .array([]) : .null)
    }

    /// GD_WHEN integers are timestamps in microseconds, unless out of the timestamp range
    /// (as `datastore_pbs.py` maps them).
    private static func integerOrTimestamp(_ value: Int64, meaning: Meaning, tag: ProtoReader.Tag) -> Value {
        guard meaning == .timestamp else { return .integer(value) }
        let (seconds, micros) = value.quotientAndRemainder(dividingBy: 1_000_000)
        let (wholeSeconds, wholeMicros) = micros < 0 ? (seconds - 1, micros + 1_000_000) : (seconds, micros)
        guard let timestamp = try? Timestamp(seconds: wholeSeconds, nanos: Int32(wholeMicros * 1000)) else { return .integer(value) }
        return .timestamp(timestamp)
    }

    /// A `stringValue`: a map (meaning 19), bytes (14, 16) or UTF-8 text.
    private static func stringValue(_ reader: inout ProtoReader, meaning: Meaning, depth: Int, tag: ProtoReader.Tag) throws(ProtoError) -> Value {
        switch meaning {
        case .entityProto:
            var nested = try reader.readMessage()
            return .map(try EntityFields.decode(&nested, depth: depth + 1, at: tag.offset).fields)
        case .blob, .byteString:
            return .bytes(Array(try reader.readBytes()))
        default:
            guard let text = String(validating: try reader.readBytes(), as: UTF8.self) else {
                throw ProtoError(offset: tag.offset, "a string value that is not valid UTF-8; Firestore strings are UTF-8 (meaning 14 or 16 would make it bytes)")
            }
            return .string(text)
        }
    }

    /// A `PointValue` group: x is the latitude, y the longitude.
    private static func point(_ reader: inout ProtoReader) throws(ProtoError) -> GeoPoint {
        try reader.readGroup(5) { group throws(ProtoError) in
            var x: Double?, y: Double?
            while let tag = try group.nextTag() {
                switch tag.field {
                case 6:
                    try ProtoReader.expect(tag, .fixed64, "x")
                    x = Double(bitPattern: try group.readFixed64())
                case 7:
                    try ProtoReader.expect(tag, .fixed64, "y")
                    y = Double(bitPattern: try group.readFixed64())
                default:
                    throw EntityKey.unknown(tag, in: "a point value")
                }
            }
            guard let x, let y else { throw ProtoError(offset: group.position, "a point value without both x and y") }
            return GeoPoint(latitude: x, longitude: y)
        }
    }

    /// A meaning that contradicts the value it annotates is an error, not a silent choice.
    private static func check(_ value: Value?, against meaning: Meaning, tag: ProtoReader.Tag?, at offset: Int) throws(ProtoError) {
        let fits: Bool
        switch (meaning, value) {
        case (.none, _): fits = true
        case (.emptyList, nil): fits = true
        case (.timestamp, .integer?), (.timestamp, .timestamp?): fits = true
        case (.geoPoint, .geoPoint?): fits = true
        case (.blob, .bytes?), (.byteString, .bytes?), (.text, .string?), (.entityProto, .map?): fits = true
        default: fits = false
        }
        guard fits else {
            throw ProtoError(offset: tag?.offset ?? offset, "meaning \(meaning.rawValue) on \(value.map { "a \($0.typeName) value" } ?? "an empty value"); expected a value of the kind the meaning annotates")
        }
    }
}
