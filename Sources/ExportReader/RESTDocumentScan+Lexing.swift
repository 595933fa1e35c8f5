import FirestoreModel
import JSONCore

extension RESTDocumentScan {
    /// Skips a JSON number (RFC 8259's grammar); false when there is none.
    mutating func skipNumber() -> Bool {
        if index < json.count, json[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        guard skipDigits() else { return false }
        if index - integerStart > 1, json[integerStart] == UInt8(ascii: "0") { return false }
        if consume(UInt8(ascii: ".")) { guard skipDigits() else { return false } }
        if index < json.count, json[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < json.count, json[index] == UInt8(ascii: "+") || json[index] == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() else { return false }
        }
        return !continuesNumber()
    }

    private mutating func skipDigits() -> Bool {
        let start = index
        while index < json.count, json[index] >= UInt8(ascii: "0"), json[index] <= UInt8(ascii: "9") { index += 1 }
        return index > start
    }

    /// Whether a number just read runs on into what no JSON number can end with.
    func continuesNumber() -> Bool {
        guard index < json.count else { return false }
        let byte = json[index]
        return byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// Skips one JSON value of any kind (strings, objects and arrays checked only for their
    /// extent: the `fields` object is read properly afterwards).
    mutating func skipValue() -> Bool {
        var open = 0
        repeat {
            skipSpace()
            guard index < json.count else { return false }
            switch json[index] {
            case UInt8(ascii: "\""):
                guard plainStringEnd() != nil || decodedString() != nil else { return false }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                open += 1
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard open > 0 else { return false }
                open -= 1
                index += 1
            default:
                index += 1
            }
        } while open > 0
        return true
    }

    /// A string literal of printable ASCII without escapes: its end (after the closing quote),
    /// having moved past it; nil (not moved) for anything else.
    mutating func plainStringEnd() -> Int? {
        guard index < json.count, json[index] == UInt8(ascii: "\"") else { return nil }
        var end = index + 1
        while end < json.count {
            let byte = json[end]
            if byte == UInt8(ascii: "\"") {
                index = end + 1
                return index
            }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
            end += 1
        }
        return nil
    }

    /// The keys the transcoder reads, told by their bytes (no String of each key is made).
    enum Key {
        case name, fields, createTime, updateTime, values, latitude, longitude
        case stringValue, mapValue, arrayValue, integerValue, doubleValue, booleanValue, nullValue, timestampValue, bytesValue, referenceValue, geoPointValue

        var text: StaticString {
            switch self {
            case .name: "name"
            case .fields: "fields"
            case .createTime: "createTime"
            case .updateTime: "updateTime"
            case .values: "values"
            case .latitude: "latitude"
            case .longitude: "longitude"
            case .stringValue: "stringValue"
            case .mapValue: "mapValue"
            case .arrayValue: "arrayValue"
            case .integerValue: "integerValue"
            case .doubleValue: "doubleValue"
            case .booleanValue: "booleanValue"
            case .nullValue: "nullValue"
            case .timestampValue: "timestampValue"
            case .bytesValue: "bytesValue"
            case .referenceValue: "referenceValue"
            case .geoPointValue: "geoPointValue"
            }
        }

        /// The key whose text `bytes` are; nil for any other. Told apart by length and first
        /// letter (no two keys share both), then checked byte by byte.
        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let first = bytes.first else { return nil }
            let key: Key
            switch (bytes.count, first) {
            case (4, UInt8(ascii: "n")): key = .name
            case (6, UInt8(ascii: "f")): key = .fields
            case (10, UInt8(ascii: "c")): key = .createTime
            case (10, UInt8(ascii: "u")): key = .updateTime
            case (6, UInt8(ascii: "v")): key = .values
            case (8, UInt8(ascii: "l")): key = .latitude
            case (9, UInt8(ascii: "l")): key = .longitude
            case (11, UInt8(ascii: "s")): key = .stringValue
            case (8, UInt8(ascii: "m")): key = .mapValue
            case (10, UInt8(ascii: "a")): key = .arrayValue
            case (12, UInt8(ascii: "i")): key = .integerValue
            case (11, UInt8(ascii: "d")): key = .doubleValue
            case (12, UInt8(ascii: "b")): key = .booleanValue
            case (9, UInt8(ascii: "n")): key = .nullValue
            case (14, UInt8(ascii: "t")): key = .timestampValue
            case (10, UInt8(ascii: "b")): key = .bytesValue
            case (14, UInt8(ascii: "r")): key = .referenceValue
            case (13, UInt8(ascii: "g")): key = .geoPointValue
            default: return nil
            }
            guard UTF8Order.equal(bytes: bytes, key.text) else { return nil }
            self = key
        }
    }

    /// A key the transcoder reads, as a string literal of printable ASCII without escapes; nil
    /// for any other key (the caller's to refuse).
    mutating func plainKey() -> Key? {
        let start = index
        guard let end = plainStringEnd() else { return nil }
        return Key(UnsafeBufferPointer(rebasing: json[(start + 1)..<(end - 1)]))
    }

    /// The text of a string literal of printable ASCII without escapes.
    private mutating func plainString() -> String? {
        let start = index
        guard let end = plainStringEnd() else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: json[(start + 1)..<(end - 1)]), as: UTF8.self)
    }

    /// The value of any string literal, as the parser decodes it.
    mutating func decodedString() -> String? {
        if let plain = plainString() { return plain }
        guard let decoded = JSONParser.string(in: json, at: index) else { return nil }
        index = decoded.end
        return decoded.value
    }

    mutating func skipSpace() {
        while index < json.count {
            switch json[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
            default: return
            }
        }
    }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard index < json.count, json[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func consume(literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= json.count else { return false }
        let matches = literal.withUTF8Buffer { expected in json[index..<(index + count)].elementsEqual(expected) }
        if matches { index += count }
        return matches
    }
}
