import HTTPTypes
import NIOCore

/// A complete response: status, header fields and the whole body in memory.
///
/// Bodies are whole buffers because every resource BundlePress serves (bundles, the manifest,
/// the explorer page) is a static file that the edge cache stores anyway; `ByteBuffer` slices
/// make ranges free. For `HEAD` the transport sends the header fields (including
/// `Content-Length`) and drops the body.
public struct ServerResponse: Sendable {
    /// The response status.
    public var status: HTTPResponse.Status
    /// The response header fields. The transport adds `Content-Length` and `Date` when missing.
    public var headerFields: HTTPFields
    /// The response body.
    public var body: ByteBuffer

    /// Creates a response.
    public init(status: HTTPResponse.Status, headerFields: HTTPFields = [:], body: ByteBuffer = ByteBuffer()) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
    }
}
