/// The `Range` request field in the `bytes` unit (RFC 9110 §14.2): one or more byte ranges.
public struct RangeRequest: Hashable, Sendable {
    /// The ranges in the order the client listed them.
    public var ranges: [ByteRangeSpec]

    /// Creates a request for `ranges`.
    public init(ranges: [ByteRangeSpec]) {
        self.ranges = ranges
    }

    /// Parses a `Range` field value, or returns `nil` when the unit is not `bytes` or the syntax
    /// is invalid (a first position after the last one, a missing number, stray characters).
    /// Servers ignore such a field and send the whole representation (RFC 9110 §14.2).
    public init?(_ fieldValue: some StringProtocol) {
        var scanner = FieldValueScanner(fieldValue)
        guard scanner.consume("bytes=", caseInsensitive: true) else { return nil }
        var ranges: [ByteRangeSpec] = []
        while scanner.beginElement() {
            guard let range = Self.range(&scanner), scanner.endElement() else { return nil }
            ranges.append(range)
        }
        guard !ranges.isEmpty else { return nil }
        self.ranges = ranges
    }

    /// Reads `first-[last]` or `-suffix`.
    private static func range(_ scanner: inout FieldValueScanner) -> ByteRangeSpec? {
        if scanner.consume(UInt8(ascii: "-")) {
            return scanner.digits().map { .suffix(length: $0) }
        }
        guard let first = scanner.digits(), scanner.consume(UInt8(ascii: "-")) else { return nil }
        let last = scanner.digits()
        if let last, last < first { return nil }
        return .from(first: first, last: last)
    }
}
