/// A way `pipeline.yml` does not fit the data it is built from: a field no document of the
/// query's collection has, a filter value of a type the field never holds, a query that returns
/// no document. Each is a warning, or with `warnings: error` a failed build.
public struct DataWarning: Sendable, Codable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable {
        /// A field of a filter, `order_by`, cursor or field rule that no document has.
        case unknownField = "unknown-field"
        /// A filter or cursor value of a type the field never holds.
        case valueType = "value-type"
        /// A named query that returns no document.
        case noResults = "no-results"
    }

    public var kind: Kind
    public var bundle: String
    /// The named query; nil for a field rule.
    public var query: String?
    /// The field, as written in pipeline.yml (nil for ``Kind/noResults``).
    public var field: String?
    /// `pipeline.yml:line:column`.
    public var location: String?
    /// The names that may have been meant, best first.
    public var suggestions: [String]
    /// The sentence, without the location.
    public var message: String

    public var description: String {
        (location.map { "\($0): " } ?? "") + message
    }
}
