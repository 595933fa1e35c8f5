/// The value of `If-Match` or `If-None-Match` (RFC 9110 §13.1.1, §13.1.2): `*` or a list of
/// entity tags.
public enum EntityTagCondition: Hashable, Sendable {
    /// `*`: true whenever the resource has a current representation.
    case any
    /// A list of tags; true when one of them matches the representation's tag.
    case tags([EntityTag])

    /// Parses a field value (several field lines joined with commas are one list).
    ///
    /// A value that is not valid list syntax becomes an empty list, which matches nothing: a
    /// garbled `If-None-Match` then yields the full response (never a wrong 304) and a garbled
    /// `If-Match` yields 412 (never an update the client did not intend).
    public init(_ fieldValue: some StringProtocol) {
        let start = FieldValueScanner(fieldValue)
        var scanner = start
        if scanner.consume(UInt8(ascii: "*")), scanner.isAtEnd {
            self = .any
            return
        }
        scanner = start
        var tags: [EntityTag] = []
        while scanner.beginElement() {
            guard let tag = EntityTag(scanning: &scanner), scanner.endElement() else {
                self = .tags([])
                return
            }
            tags.append(tag)
        }
        self = .tags(tags)
    }

    /// Whether the condition holds for a representation whose tag is `current` (`nil` when it has none).
    ///
    /// - Parameter strong: `true` for the strong comparison (`If-Match`), `false` for the weak
    ///   one (`If-None-Match`).
    public func matches(_ current: EntityTag?, strong: Bool) -> Bool {
        switch self {
        case .any:
            return true
        case .tags(let tags):
            guard let current else { return false }
            return tags.contains { strong ? $0.matchesStrongly(current) : $0.matchesWeakly(current) }
        }
    }
}
