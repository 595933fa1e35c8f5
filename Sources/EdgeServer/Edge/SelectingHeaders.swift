import HTTPTypes

/// The secondary cache key of a stored response (RFC 9111 §4.1): the request header fields its
/// `Vary` names, with the values the storing request had, normalised.
struct SelectingHeaders: Equatable, Sendable {
    private var names: [HTTPField.Name]
    private var values: [String?]

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
        values = names.map { Self.normalised(request, $0) }
    }

    /// Whether `request` selects the same variant: every nominated field has the same normalised
    /// value (absent fields match only absent fields).
    func matches(_ request: HTTPFields) -> Bool {
        zip(names, values).allSatisfy { name, value in Self.normalised(request, name) == value }
    }

    /// All field lines joined with commas, whitespace removed and letters lowercased:
    /// `gzip, br`, `GZIP,br` and `gzip;q=1, br` vs `gzip; q=1,br` select the same variant. This is
    /// safe for the fields origins vary on (`Accept-Encoding`, `Accept-Language`, `Origin`), whose
    /// values are case-insensitive token lists without meaningful whitespace.
    private static func normalised(_ request: HTTPFields, _ name: HTTPField.Name) -> String? {
        let lines = request[values: name]
        guard !lines.isEmpty else { return nil }
        return lines.joined(separator: ",").filter { $0 != " " && $0 != "\t" }.lowercased()
    }
}
