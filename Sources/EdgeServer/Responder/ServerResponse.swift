import HTTPTypes
import NIOCore

/// A complete response: status, header fields and the whole body.
///
/// The body is known whole before anything is sent (see ``ResponseBody``): every resource
/// BundlePress serves (bundles, the manifest, the explorer page) is a static file, which the edge
/// cache stores anyway. For `HEAD` the transport sends the header fields (including
/// `Content-Length`) and drops the body.
public struct ServerResponse: Sendable {
    /// The response status.
    public var status: HTTPResponse.Status
    /// The response header fields. The transport adds `Content-Length` and `Date` when missing.
    public var headerFields: HTTPFields {
        didSet { notModifiedFields = nil }
    }
    /// The response body.
    public var body: ResponseBody
    /// The fields of this response as `304 Not Modified`, when prepared ahead for a response
    /// served many times (see ``prepareNotModified()``); any change to ``headerFields`` drops them.
    var notModifiedFields: HTTPFields?

    /// Creates a response with `body` in memory.
    public init(status: HTTPResponse.Status, headerFields: HTTPFields = [:], body: ByteBuffer = ByteBuffer()) {
        self.init(status: status, headerFields: headerFields, body: ResponseBody(body))
    }

    /// Creates a response.
    public init(status: HTTPResponse.Status, headerFields: HTTPFields, body: ResponseBody) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
    }
}
