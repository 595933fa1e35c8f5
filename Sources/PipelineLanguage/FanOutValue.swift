import FirestoreModel

/// One value a `for_each` bundle is made for: a string or an integer, the types that can become
/// part of a bundle id and a named-query name. Strings compare by UTF-8 bytes, as Firestore
/// compares them; integers order before strings, as in Firestore's type order.
public enum FanOutValue: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    case string(String)
    case integer(Int64)

    /// The text spliced into ids, names and paths: the string itself, or the decimal integer.
    public var text: String {
        switch self {
        case .string(let text): return text
        case .integer(let value): return String(value)
        }
    }

    /// The Firestore value, for a placeholder that stands alone in a query value.
    public var value: Value {
        switch self {
        case .string(let text): return .string(text)
        case .integer(let value): return .integer(value)
        }
    }

    /// A quoted string or a bare integer, as in messages.
    public var description: String {
        switch self {
        case .string(let text): return "\"\(text)\""
        case .integer(let value): return String(value)
        }
    }

    /// The value of a document field, when it is one a `for_each` can take.
    init?(_ value: Value) {
        switch value {
        case .string(let text): self = .string(text)
        case .integer(let integer): self = .integer(integer)
        default: return nil
        }
    }

    public static func == (lhs: FanOutValue, rhs: FanOutValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return UTF8Order.equal(a, b)
        case (.integer(let a), .integer(let b)): return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let text):
            hasher.combine(0)
            hasher.combine(Array(text.utf8))
        case .integer(let value):
            hasher.combine(1)
            hasher.combine(value)
        }
    }

    public static func < (lhs: FanOutValue, rhs: FanOutValue) -> Bool {
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)): return a < b
        case (.string(let a), .string(let b)): return UTF8Order.compare(a, b) == .less
        case (.integer, .string): return true
        case (.string, .integer): return false
        }
    }

    /// A JSON string or number.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .integer(let value): try container.encode(value)
        }
    }
}
