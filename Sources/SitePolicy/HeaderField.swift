/// One response header field a policy adds: a name and a value, both checked.
public struct HeaderField: Sendable, Hashable, CustomStringConvertible {
    /// The field name as written (matching is case-insensitive).
    public let name: String
    /// The field value.
    public let value: String

    /// Field names (lowercase) a policy may not set, each with the reason given to the user.
    ///
    /// Hop-by-hop fields belong to one connection, and framing fields and validators are
    /// computed by the server from the file it sends. Every `Access-Control-*` field is refused
    /// too (see ``reason(forReservedName:)``).
    public static let reservedNames: [String: String] = {
        var reserved: [String: String] = [:]
        for name in ["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade"] {
            reserved[name] = "it is a hop-by-hop field that only the server's connection handling may set"
        }
        for name in ["content-length", "content-encoding", "content-range", "accept-ranges"] {
            reserved[name] = "the server sets it from the representation it sends (identity or the .gz file)"
        }
        for name in ["etag", "last-modified", "date", "vary", "age"] {
            reserved[name] = "the server computes it (validators, Vary: Accept-Encoding, Age at the edge); overriding it would break caching"
        }
        return reserved
    }()

    /// Creates a field after checking it.
    ///
    /// - Throws: ``HeaderFieldError`` when the name is not an HTTP token (RFC 9110 §5.1), is
    ///   one of ``reservedNames``, or the value holds a control character (CR, LF, NUL…) or
    ///   leading/trailing whitespace.
    public init(validatingName name: String, value: String) throws(HeaderFieldError) {
        guard !name.isEmpty, name.utf8.allSatisfy(Self.isTokenByte) else {
            throw .invalidName(name)
        }
        if let reason = Self.reason(forReservedName: name) {
            throw .reservedName(name, reason: reason)
        }
        let bytes = Array(value.utf8)
        let badByte = bytes.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
        let padded = bytes.first.map { $0 == 0x20 || $0 == 0x09 } == true || bytes.last.map { $0 == 0x20 || $0 == 0x09 } == true
        guard !badByte, !padded else { throw .invalidValue(name: name, value: value) }
        self.init(name: name, value: value)
    }

    /// Why a policy may not set `name`, or nil when it may. CORS fields come from the `cors:`
    /// setting so that preflight answers agree with them.
    public static func reason(forReservedName name: String) -> String? {
        let lowercased = name.lowercased()
        if lowercased.hasPrefix("access-control-") {
            return "CORS headers come from the cors: setting (allow_origin, paths)"
        }
        return reservedNames[lowercased]
    }

    /// Creates a field without checks, for the built-in defaults.
    init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// tchar (RFC 9110 §5.6.2): ALPHA, DIGIT and ``!#$%&'*+-.^_`|~``.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    public var description: String { "\(name): \(value)" }
}
