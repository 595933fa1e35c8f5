import FirestoreModel
import JSONCore

extension RESTDocumentScan {
    /// One value object (`{"stringValue": …}`), encoded: a string, map or array as it is read,
    /// any other value as ``FirestoreModel/Value/encode(into:)`` writes it.
    mutating func value(into writer: inout JSONWriter) -> Bool {
        guard consume(UInt8(ascii: "{")) else { return false }
        skipSpace()
        guard let kind = plainKey() else { return false }
        skipSpace()
        guard consume(UInt8(ascii: ":")) else { return false }
        skipSpace()
        switch kind {
        case .stringValue:
            writer.raw("{\"stringValue\":")
            guard let end = writer.copyString(json, at: index) else { return false }
            index = end
            writer.byte(UInt8(ascii: "}"))
        case .mapValue:
            guard let hasFields = openWrapper(.fields) else { return false }
            let mark = writer.count
            writer.raw("{\"mapValue\":{\"fields\":")
            let fieldsStart = writer.count
            var none: [MapValue.Field] = []
            if hasFields { guard fields(into: &writer, found: &none) else { return false } }
            if !hasFields || writer.count == fieldsStart + 2 {
                // An empty map is written `{}`, as the encoder writes it.
                writer.truncate(to: mark)
                writer.raw("{\"mapValue\":{}}")
            } else {
                writer.raw("}}")
            }
            guard closeWrapper(hasFields) else { return false }
        case .arrayValue:
            guard let hasValues = openWrapper(.values), !hasValues || consume(UInt8(ascii: "[")) else { return false }
            depth += 1
            defer { depth -= 1 }
            guard depth <= RESTDocumentScan.maximumDepth else { return false }
            skipSpace()
            if !hasValues || consume(UInt8(ascii: "]")) {
                writer.raw("{\"arrayValue\":{}}")
            } else {
                writer.raw("{\"arrayValue\":{\"values\":[")
                while true {
                    skipSpace()
                    guard value(into: &writer) else { return false }
                    skipSpace()
                    if consume(UInt8(ascii: "]")) { break }
                    guard consume(UInt8(ascii: ",")) else { return false }
                    writer.byte(UInt8(ascii: ","))
                }
                writer.raw("]}}")
            }
            guard closeWrapper(hasValues) else { return false }
        case .bytesValue where copyCanonical(.bytesValue, into: &writer, if: Base64.isCanonical),
             .timestampValue where copyCanonical(.timestampValue, into: &writer, if: { Timestamp.hasCanonicalShape($0) && (try? Timestamp(rfc3339: $0)) != nil }):
            break
        default:
            guard let scalar = scalar(kind) else { return false }
            scalar.encode(into: &writer)
        }
        skipSpace()
        return consume(UInt8(ascii: "}"))
    }

    /// A value of type `kind` copied as it is (`{"<kind>":"<text>"}`) when its string's text is
    /// what the encoder writes for it (`isCanonical`: base64 as ``FirestoreModel/Base64/isCanonical(_:)``
    /// says, a valid timestamp of ``FirestoreModel/Timestamp/hasCanonicalShape(_:)``), which
    /// decoding and encoding would give back; false (not moved) for any other form, which is decoded.
    private mutating func copyCanonical(_ kind: Key, into writer: inout JSONWriter, if isCanonical: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        let start = index
        guard let end = plainStringEnd() else { return false }
        guard isCanonical(UnsafeBufferPointer(rebasing: json[(start + 1)..<(end - 1)])) else {
            index = start
            return false
        }
        writer.raw("{\"")
        writer.raw(kind.text)
        writer.raw("\":")
        writer.raw(bytes: UnsafeBufferPointer(rebasing: json[start..<end]))
        writer.byte(UInt8(ascii: "}"))
        return true
    }

    /// The value of a value object whose type key is `kind`, other than a string, map or array;
    /// nil for a form the decoder is to read (or report).
    private mutating func scalar(_ kind: Key) -> Value? {
        switch kind {
        case .integerValue:
            return integer().map(Value.integer)
        case .doubleValue:
            return double().map(Value.double)
        case .booleanValue:
            if consume(literal: "true") { return .boolean(true) }
            return consume(literal: "false") ? .boolean(false) : nil
        case .nullValue:
            return consume(literal: "null") || consume(literal: "\"NULL_VALUE\"") ? .null : nil
        case .timestampValue:
            return timestamp().map(Value.timestamp)
        case .bytesValue:
            return decodedString().flatMap(Base64.decode).map(Value.bytes)
        case .referenceValue:
            guard let text = decodedString(), let name = try? ResourceName(documentName: text, relativeTo: source) else { return nil }
            let moved = DocumentReRooter(target: target).reRoot(name, from: source)
            // A reference outside the target is the caller's to report, from the whole document.
            return moved.database == target ? .reference(moved) : nil
        case .geoPointValue:
            return geoPoint().map(Value.geoPoint)
        default:
            // Keys that are no value type: the decoder's to report.
            return nil
        }
    }

    /// The object a map's fields or an array's values are in: `{}` (false), or `{"<key>":`
    /// (true, at the value); nil for anything else.
    private mutating func openWrapper(_ key: Key) -> Bool? {
        guard consume(UInt8(ascii: "{")) else { return nil }
        skipSpace()
        if consume(UInt8(ascii: "}")) { return false }
        guard plainKey() == key else { return nil }
        skipSpace()
        guard consume(UInt8(ascii: ":")) else { return nil }
        skipSpace()
        return true
    }

    /// The end of a wrapper ``openWrapper(_:)`` opened, `{}` already read when it was empty.
    private mutating func closeWrapper(_ opened: Bool) -> Bool {
        guard opened else { return true }
        skipSpace()
        return consume(UInt8(ascii: "}"))
    }

    /// The value at `range` decoded as the decoder decodes it, references moved with the
    /// document.
    func decode(_ range: Range<Int>) -> Value? {
        guard let node = try? JSONParser.parse(UnsafeBufferPointer(rebasing: json[range])),
              let value = try? Value(protoJSON: node, relativeTo: source)
        else { return nil }
        return DocumentReRooter(target: target).reRoot(value, from: source)
    }

    /// An int64 as a JSON integer or a decimal string, in its shortest form (no sign on zero,
    /// no leading zeros, at most 18 digits: every such number fits).
    private mutating func integer() -> Int64? {
        let quoted = consume(UInt8(ascii: "\""))
        let start = index
        if index < json.count, json[index] == UInt8(ascii: "-") { index += 1 }
        let digitsStart = index
        while index < json.count, json[index] >= UInt8(ascii: "0"), json[index] <= UInt8(ascii: "9") { index += 1 }
        let digits = index - digitsStart
        guard digits >= 1, digits <= 18, json[digitsStart] != UInt8(ascii: "0") || (digits == 1 && digitsStart == start) else { return nil }
        let end = index
        if quoted { guard consume(UInt8(ascii: "\"")) else { return nil } } else { guard !continuesNumber() else { return nil } }
        return Int64(String(decoding: UnsafeBufferPointer(rebasing: json[start..<end]), as: UTF8.self))
    }

    /// A double as a JSON number, or as the string "NaN", "Infinity" or "-Infinity".
    private mutating func double() -> Double? {
        if consume(literal: "\"NaN\"") { return .nan }
        if consume(literal: "\"Infinity\"") { return .infinity }
        if consume(literal: "\"-Infinity\"") { return -.infinity }
        let start = index
        guard skipNumber() else { return nil }
        return Double(String(decoding: UnsafeBufferPointer(rebasing: json[start..<index]), as: UTF8.self))
    }

    /// `{"latitude": …, "longitude": …}`, either left out for 0, within ±90 and ±180.
    private mutating func geoPoint() -> GeoPoint? {
        guard consume(UInt8(ascii: "{")) else { return nil }
        var (latitude, longitude): (Double?, Double?) = (nil, nil)
        skipSpace()
        if !consume(UInt8(ascii: "}")) {
            while true {
                skipSpace()
                let key = plainKey()
                skipSpace()
                guard consume(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                guard let value = double() else { return nil }
                switch key {
                case .latitude where latitude == nil: latitude = value
                case .longitude where longitude == nil: longitude = value
                default: return nil
                }
                skipSpace()
                if consume(UInt8(ascii: "}")) { break }
                guard consume(UInt8(ascii: ",")) else { return nil }
            }
        }
        let point = GeoPoint(latitude: latitude ?? 0, longitude: longitude ?? 0)
        guard (-90...90).contains(point.latitude), (-180...180).contains(point.longitude) else { return nil }
        return point
    }

    /// A timestamp as an RFC 3339 string (parsed from its bytes when it has no escapes).
    mutating func timestamp() -> Timestamp? {
        let start = index
        if let end = plainStringEnd() { return try? Timestamp(rfc3339: UnsafeBufferPointer(rebasing: json[(start + 1)..<(end - 1)])) }
        guard let text = decodedString() else { return nil }
        return try? Timestamp(rfc3339: text)
    }
}
