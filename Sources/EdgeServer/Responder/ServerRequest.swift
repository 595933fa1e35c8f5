import HTTPTypes
import NIOCore

/// A request as every ``Responder`` layer sees it, after the transport has parsed and checked it.
///
/// The transport decodes and normalises the path once (percent-decoding, dot segments, NUL and
/// backslash checks), so no layer behind it ever sees a path that could leave the site root.
public struct ServerRequest: Sendable {
    /// The request method.
    public var method: HTTPRequest.Method
    /// The decoded, normalised absolute path, always starting with `/` (for example `/bundles/a.bundle`).
    public var path: String
    /// The raw query string without the `?`, or `nil` when the target had none.
    public var query: String?
    /// The request's header fields.
    public var headerFields: HTTPFields
    /// Whether the peer connected from a loopback address (loopback-only endpoints check this).
    public var isFromLoopback: Bool
    /// The request body, whole (the transport reads at most
    /// ``ConnectionLimits/maxRequestBodyBytes`` of it); empty for requests without one.
    public var body: ByteBuffer

    /// Creates a request.
    public init(
        method: HTTPRequest.Method,
        path: String,
        query: String? = nil,
        headerFields: HTTPFields = [:],
        isFromLoopback: Bool = true,
        body: ByteBuffer = ByteBuffer()
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headerFields = headerFields
        self.isFromLoopback = isFromLoopback
        self.body = body
    }
}
