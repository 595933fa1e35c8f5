import FirestoreModel
import JSONCore

/// The fields of a document that look like personal data or a secret (``SensitiveValue``): by
/// their names, and cheaply by their string values. Noted as each document is read and set
/// aside (``DocumentSet``), from the bytes a bundle carries; the guard (``ExposureScan``) then
/// judges what each bundle publishes by them.
enum SensitiveFields {
    /// A field of one document that looks sensitive: by its name (not looked into further), or
    /// by a string value in it.
    struct Candidate: Sendable, Hashable {
        var path: [String]
        var looksLike: SensitiveValue
    }

    /// The candidates of a document with these fields, in field order.
    static func candidates(in fields: MapValue, names: inout NameJudgements) -> [Candidate] {
        var writer = JSONWriter()
        fields.encodeFields(into: &writer)
        return candidates(inEncoded: writer.bytes, names: &names)
    }

    /// The candidates of a document whose fields encode as `encoded`
    /// (``FirestoreModel/MapValue/encodeFields(into:)``), in field order: read from the bytes a
    /// bundle carries, without decoding them into values.
    static func candidates(inEncoded encoded: [UInt8], names: inout NameJudgements) -> [Candidate] {
        var found: [Candidate] = []
        encoded.withUnsafeBufferPointer { bytes in
            var scan = EncodedFieldsScan(bytes: bytes)
            scan.fields(names: &names) { found.append(Candidate(path: $0, looksLike: $1)) }
        }
        return found
    }

    /// ``SensitiveValue/named(_:)`` of each field name, remembered.
    struct NameJudgements {
        private var judged: [String: SensitiveValue?] = [:]

        mutating func named(_ name: String) -> SensitiveValue? {
            if let known = judged[name] { return known }
            let judgement = SensitiveValue.named(name)
            judged[name] = judgement
            return judgement
        }
    }
}

/// A walk through fields as ``FirestoreModel/MapValue/encodeFields(into:)`` writes them: keys,
/// then `{"<type>Value":…}` objects, maps as `{"mapValue":{"fields":{…}}}` and arrays as
/// `{"arrayValue":{"values":[…]}}` (empty ones as `{}`), no whitespace. The bytes are the
/// build's own encoding; on anything else the walk stops.
private struct EncodedFieldsScan {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// The path of the field being walked.
    private var path: [String] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Reports, in field order, each field whose name looks sensitive (not looked into further)
    /// and each string value that does, with its path.
    mutating func fields(names: inout SensitiveFields.NameJudgements, _ report: ([String], SensitiveValue) -> Void) {
        guard consume(UInt8(ascii: "{")) else { return }
        if consume(UInt8(ascii: "}")) { return }
        repeat {
            guard let key = string({ String(decoding: $0, as: UTF8.self) }), consume(UInt8(ascii: ":")) else { return }
            path.append(key)
            defer { path.removeLast() }
            if let named = names.named(key) {
                report(path, named)
                guard skipValue() else { return }
            } else {
                guard value(names: &names, report) else { return }
            }
        } while consume(UInt8(ascii: ","))
        _ = consume(UInt8(ascii: "}"))
    }

    private mutating func value(names: inout SensitiveFields.NameJudgements, _ report: ([String], SensitiveValue) -> Void) -> Bool {
        guard consume(UInt8(ascii: "{")), let kind = string({ Kind($0) }), consume(UInt8(ascii: ":")) else { return false }
        switch kind {
        case .string:
            guard let looks = valueString() else { return false }
            if let looks { report(path, looks) }
        case .map:
            guard consume(UInt8(ascii: "{")) else { return false }
            if !consume(UInt8(ascii: "}")) {
                guard string({ _ in () }) != nil, consume(UInt8(ascii: ":")) else { return false }
                fields(names: &names, report)
                guard consume(UInt8(ascii: "}")) else { return false }
            }
        case .array:
            guard consume(UInt8(ascii: "{")) else { return false }
            if !consume(UInt8(ascii: "}")) {
                guard string({ _ in () }) != nil, consume(UInt8(ascii: ":")), consume(UInt8(ascii: "[")) else { return false }
                repeat {
                    guard value(names: &names, report) else { return false }
                } while consume(UInt8(ascii: ","))
                guard consume(UInt8(ascii: "]")), consume(UInt8(ascii: "}")) else { return false }
            }
        case .other:
            guard skipValue() else { return false }
        }
        return consume(UInt8(ascii: "}"))
    }

    /// The value types the walk looks into.
    private enum Kind {
        case string, map, array, other

        init(_ key: UnsafeBufferPointer<UInt8>) {
            // By length and first byte, then the bytes (`elementsEqual` over a `String.UTF8View`
            // is generic, and this runs for every value a site publishes).
            switch (key.count, key.first) {
            case (11, UInt8(ascii: "s")) where UTF8Order.equal(bytes: key, "stringValue"): self = .string
            case (8, UInt8(ascii: "m")) where UTF8Order.equal(bytes: key, "mapValue"): self = .map
            case (10, UInt8(ascii: "a")) where UTF8Order.equal(bytes: key, "arrayValue"): self = .array
            default: self = .other
            }
        }
    }

    /// `body` of a string literal's UTF-8 text, its escapes decoded (the few with escapes are
    /// decoded by the parser).
    private mutating func string<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let start = index
        index += 1
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            guard bytes[index] != UInt8(ascii: "\\") else {
                guard let decoded = JSONParser.string(in: bytes, at: start) else { return nil }
                index = decoded.end
                var text = decoded.value
                return text.withUTF8(body)
            }
            index += 1
        }
        guard index < bytes.count else { return nil }
        index += 1
        return body(UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(index - 1)]))
    }

    /// What a string value looks like, if anything sensitive (nil: not a string literal).
    ///
    /// A literal with escapes is decoded only when it can look sensitive: the encoding escapes
    /// only quotes, backslashes, control characters and non-ASCII, and a value with any of those
    /// can only be an e-mail address (every other kind is printable ASCII of its own few
    /// characters), which needs an `@`.
    private mutating func valueString() -> SensitiveValue?? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        var end = index + 1
        var escaped = false
        var at = false
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
            if bytes[end] == UInt8(ascii: "\\") {
                escaped = true
                // `\u0040` is an `@` too, though the encoding writes it as it is.
                if bytes[(end + 1)...].starts(with: "u0040".utf8) { at = true }
                end += 1
            } else if bytes[end] == UInt8(ascii: "@") {
                at = true
            }
            end += 1
        }
        guard end < bytes.count else { return nil }
        guard escaped else {
            // Plain, its text is what was just walked: judged as it is, not walked again.
            let text = UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end])
            index = end + 1
            return .some(SensitiveValue.looking(like: text))
        }
        guard at else {
            index = end + 1
            return .some(nil)
        }
        return string(SensitiveValue.looking(like:))
    }

    /// Skips one JSON value: a string, an object or array, or a literal.
    private mutating func skipValue() -> Bool {
        var open = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                guard string({ _ in () }) != nil else { return false }
                if open == 0 { return true }
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                open += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if open == 0 { return true }
                open -= 1
                if open == 0 {
                    index += 1
                    return true
                }
            case UInt8(ascii: ","):
                if open == 0 { return true }
            default:
                break
            }
            index += 1
        }
        return open == 0
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }
}
