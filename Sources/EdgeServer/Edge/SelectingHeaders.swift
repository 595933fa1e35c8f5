import HTTPTypes

/// The secondary cache key of a stored response (RFC 9111 §4.1): the request header fields its
/// `Vary` names, with the values the storing request had, normalised.
struct SelectingHeaders: Equatable, Sendable {
    private var names: [HTTPField.Name]
    /// The normalised value of each nominated field, nil when the storing request had none.
    private var values: [[UInt8]?]

    /// Records the fields `vary` names from `request`, or returns `nil` for `Vary: *` (such a
    /// response never matches a later request, so it is not stored).
    init?(vary: String?, request: HTTPFields) {
        var names: [HTTPField.Name] = []
        var scanner = FieldValueScanner(vary ?? "")
        while scanner.beginElement() {
            if scanner.consume(UInt8(ascii: "*")) { return nil }
            if let token = scanner.token(), let name = HTTPField.Name(token), !names.contains(name) {
                names.append(name)
            }
            scanner.skipElement()
        }
        self.names = names
        values = names.map { name in request.contains(name) ? Array(Self.normalised(request, name)) : nil }
    }

    /// Whether `request` selects the same variant: every nominated field has the same normalised
    /// value (absent fields match only absent fields). Compares lazily, without building strings.
    func matches(_ request: HTTPFields) -> Bool {
        zip(names, values).allSatisfy { name, value in
            guard let value else { return !request.contains(name) }
            return request.contains(name) && Self.normalised(request, name).elementsEqual(value)
        }
    }

    /// The bytes of all `name` field lines joined with commas, whitespace removed and ASCII
    /// letters lowercased: `gzip, br`, `GZIP,br` and `gzip;q=1, br` vs `gzip; q=1,br` select the
    /// same variant. This is safe for the fields origins vary on (`Accept-Encoding`,
    /// `Accept-Language`, `Origin`), whose values are case-insensitive token lists without
    /// meaningful whitespace.
    private static func normalised(_ request: HTTPFields, _ name: HTTPField.Name) -> some Sequence<UInt8> {
        request.lazy
            .filter { $0.name == name }
            .map(\.value.utf8)
            .joined(separator: CollectionOfOne(UInt8(ascii: ",")))
            .lazy
            .filter { !$0.isSpaceOrTab }
            .map(\.asciiLowercased)
    }
}
