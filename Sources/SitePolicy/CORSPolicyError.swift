/// A `cors: allow_origin` value that is neither `*` nor an origin.
public struct CORSPolicyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The value as written.
    public var allowOrigin: String

    /// Creates the error.
    public init(allowOrigin: String) {
        self.allowOrigin = allowOrigin
    }

    public var description: String {
        "allow_origin \"\(allowOrigin)\" is not \"*\" or an origin like https://app.example.com (scheme, host and optional port; no path or trailing slash)"
    }
}
