/// An entity tag (RFC 9110 §8.8.3): an opaque validator of one representation, strong or weak.
///
/// BundlePress origins send strong tags derived from the content hash, one per representation
/// (identity and gzip differ). Clients echo them back in `If-None-Match`, `If-Match` and `If-Range`.
public struct EntityTag: Hashable, Sendable, CustomStringConvertible {
    /// The tag between the quotes.
    public let opaqueTag: String
    /// Whether the tag was sent with the `W/` prefix.
    public let isWeak: Bool

    /// Creates a tag, or returns `nil` when `opaqueTag` holds a character an entity tag cannot
    /// carry (a double quote, a control character or whitespace).
    public init?(opaqueTag: String, isWeak: Bool = false) {
        guard opaqueTag.utf8.allSatisfy(Self.isTagCharacter) else { return nil }
        self.opaqueTag = opaqueTag
        self.isWeak = isWeak
    }

    /// Parses a field value that holds exactly one entity tag (`ETag`, `If-Range`), or returns
    /// `nil` when it does not.
    public init?(_ fieldValue: some StringProtocol) {
        var scanner = FieldValueScanner(fieldValue)
        guard let tag = EntityTag(scanning: &scanner), scanner.isAtEnd else { return nil }
        self = tag
    }

    /// Reads `[W/]"etagc*"` at the scanner's position.
    init?(scanning scanner: inout FieldValueScanner) {
        var probe = scanner
        let isWeak = probe.consume("W/")
        guard probe.consume(UInt8(ascii: "\"")) else { return nil }
        let opaqueTag = probe.run(while: Self.isTagCharacter)
        guard probe.consume(UInt8(ascii: "\"")) else { return nil }
        self.opaqueTag = opaqueTag
        self.isWeak = isWeak
        scanner = probe
    }

    /// Whether `fieldValue` is exactly one entity tag, `[W/]"etagc*"` (what ``init(_:)`` accepts,
    /// but without surrounding whitespace), checked in place without copying it.
    static func isExactlyOneTag(_ fieldValue: String) -> Bool {
        var value = fieldValue
        return value.withUTF8 { bytes in
            let quoted = bytes.starts(with: "W/".utf8) ? UnsafeBufferPointer(rebasing: bytes.dropFirst(2)) : bytes
            guard quoted.count >= 2, quoted.first == UInt8(ascii: "\""), quoted.last == UInt8(ascii: "\"") else { return false }
            return quoted.dropFirst().dropLast().allSatisfy(isTagCharacter)
        }
    }

    /// The strong comparison of RFC 9110 §8.8.3.2: both tags strong and character-for-character equal.
    /// `If-Match` and `If-Range` use it.
    public func matchesStrongly(_ other: EntityTag) -> Bool {
        !isWeak && !other.isWeak && opaqueTag == other.opaqueTag
    }

    /// The weak comparison of RFC 9110 §8.8.3.2: the opaque tags are equal, weak or not.
    /// `If-None-Match` uses it.
    public func matchesWeakly(_ other: EntityTag) -> Bool {
        opaqueTag == other.opaqueTag
    }

    /// The tag as it appears in a field value, for example `"3f2a"` or `W/"3f2a"`.
    public var description: String {
        (isWeak ? "W/\"" : "\"") + opaqueTag + "\""
    }

    /// `etagc` of RFC 9110 §8.8.3: `%x21 / %x23-7E / obs-text`.
    private static func isTagCharacter(_ byte: UInt8) -> Bool {
        byte == 0x21 || (0x23...0x7E).contains(byte) || byte >= 0x80
    }
}
