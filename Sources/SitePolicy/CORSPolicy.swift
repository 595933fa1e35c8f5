/// Which paths browsers on other origins may fetch, and what they may read.
///
/// The server sends `Access-Control-Allow-Origin` and `Access-Control-Expose-Headers` on every
/// response for a matching path (200, 304, 404 alike, so a web app sees the real status), and
/// answers preflight `OPTIONS` requests for them with 204.
public struct CORSPolicy: Sendable, Hashable {
    /// `*` or one serialized origin such as `https://app.example.com`.
    public let allowOrigin: String
    /// The paths CORS applies to.
    public let paths: [PathPattern]

    /// The response fields a cross-origin script may read besides the CORS-safelisted ones:
    /// the validator it revalidates with and the edge's cache status.
    public static let exposedHeaders = ["ETag", "Age", "X-Cache", "Cache-Status"]
    /// The request fields a preflight may ask for: the conditional and range fields.
    public static let allowedRequestHeaders = ["If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range", "Range"]
    /// The methods a preflight may ask for.
    public static let allowedMethods = ["GET", "HEAD", "OPTIONS"]
    /// How long (seconds) a browser may cache a preflight answer.
    public static let preflightMaxAge = 86_400

    /// The default: any origin may read everything under the bundles directory (the bundles
    /// and the manifest).
    public static let `default` = CORSPolicy(uncheckedAllowOrigin: "*", paths: [HeaderPolicy.bundlesDirectoryPattern])

    /// Creates a policy after checking the origin.
    ///
    /// - Throws: ``CORSPolicyError`` unless `allowOrigin` is `*` or an origin
    ///   `scheme://host[:port]` without a path.
    public init(allowOrigin: String, paths: [PathPattern]) throws(CORSPolicyError) {
        guard allowOrigin == "*" || Self.isSerializedOrigin(allowOrigin) else {
            throw CORSPolicyError(allowOrigin: allowOrigin)
        }
        self.init(uncheckedAllowOrigin: allowOrigin, paths: paths)
    }

    init(uncheckedAllowOrigin: String, paths: [PathPattern]) {
        self.allowOrigin = uncheckedAllowOrigin
        self.paths = paths
    }

    /// Whether CORS applies to the site path `path`.
    public func applies(toPath path: String) -> Bool {
        paths.contains { $0.matches(path) }
    }

    /// The fields sent with every response for a matching path.
    public var responseFields: [HeaderField] {
        [
            HeaderField(name: "Access-Control-Allow-Origin", value: allowOrigin),
            HeaderField(name: "Access-Control-Expose-Headers", value: Self.exposedHeaders.joined(separator: ", ")),
        ]
    }

    /// `http://host`, `https://host:8443`: a scheme, `://`, a host and an optional port, nothing else.
    private static func isSerializedOrigin(_ text: String) -> Bool {
        let parts = text.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let first = parts[0].utf8.first, isLetter(first), !parts[1].isEmpty else { return false }
        let schemeIsValid = parts[0].utf8.allSatisfy { isLetter($0) || isDigit($0) || Array("+-.".utf8).contains($0) }
        let hostIsValid = parts[1].utf8.allSatisfy { isLetter($0) || isDigit($0) || Array("-.:[]".utf8).contains($0) }
        return schemeIsValid && hostIsValid
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
