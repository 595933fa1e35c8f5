/// A JSON value parsed from bytes, remembering where in its source it started.
///
/// Positions are byte offsets into the buffer that was parsed; ``SourceMap`` turns them into
/// line and column numbers only when an error is reported, so the happy path pays nothing.
public struct JSONNode: Sendable {
    /// The value itself.
    public enum Kind: Sendable {
        case null
        case bool(Bool)
        case number(JSONNumber)
        case string(String)
        case array([JSONNode])
        case object(JSONObject)
    }

    public var kind: Kind
    /// Byte offset of the value's first byte in the parsed buffer.
    public var offset: Int

    public init(_ kind: Kind, offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// A short description of the kind of value, for error messages ("a string", "an object").
    public var kindDescription: String {
        switch kind {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    public var stringValue: String? {
        if case .string(let s) = kind { return s }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let o) = kind { return o }
        return nil
    }

    public var arrayValue: [JSONNode]? {
        if case .array(let a) = kind { return a }
        return nil
    }

    public var numberValue: JSONNumber? {
        if case .number(let n) = kind { return n }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = kind { return b }
        return nil
    }

    public var isNull: Bool {
        if case .null = kind { return true }
        return false
    }
}

/// A JSON number kept as its literal text, so integers and doubles stay distinct and
/// integers beyond 2^53 stay exact.
public struct JSONNumber: Sendable, Equatable {
    /// The literal exactly as it appeared in the source (already validated against RFC 8259).
    public let literal: String

    public init(literal: String) {
        self.literal = literal
    }

    /// True when the literal has no fraction and no exponent (`12`, `-3`), i.e. it was written
    /// as an integer.
    public var isIntegerLiteral: Bool {
        !literal.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }

    /// The value as an `Int64` when the literal is an integer literal that fits.
    public var int64Value: Int64? {
        isIntegerLiteral ? Int64(literal) : nil
    }

    /// The value as the nearest `Double` (correctly rounded).
    public var doubleValue: Double {
        Double(literal) ?? .nan
    }
}

/// A JSON object whose members keep their source order and offsets.
///
/// Keys are compared by their UTF-8 bytes, never by Swift `String` equality (which would
/// treat canonically equivalent keys such as NFC and NFD "é" as the same).
public struct JSONObject: Sendable {
    public struct Member: Sendable {
        public var key: String
        /// Byte offset of the key's opening quote.
        public var keyOffset: Int
        public var value: JSONNode

        public init(key: String, keyOffset: Int, value: JSONNode) {
            self.key = key
            self.keyOffset = keyOffset
            self.value = value
        }
    }

    public var members: [Member]

    public init(members: [Member]) {
        self.members = members
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    public var keys: [String] { members.map(\.key) }

    /// The member named `key` (byte-exact match).
    public func member(_ key: String) -> Member? {
        members.first { $0.key.utf8.elementsEqual(key.utf8) }
    }

    /// The value named `key` (byte-exact match).
    public subscript(key: String) -> JSONNode? {
        member(key)?.value
    }
}
