import HTTPTypes
import NIOCore

extension ServerResponse {
    /// A short `text/plain` response that no cache stores (`Cache-Control: no-store`), for errors
    /// and endpoint replies.
    ///
    /// - Parameter kept: header fields to carry over (for example CORS or `Vary` fields of the
    ///   response the error replaces); representation and caching fields are set here.
    static func plainText(_ status: HTTPResponse.Status, _ message: String, keeping kept: HTTPFields = [:]) -> ServerResponse {
        var fields = kept
        fields[.contentType] = "text/plain; charset=utf-8"
        fields[.cacheControl] = "no-store"
        fields[.contentLength] = String(message.utf8.count + 1)
        return ServerResponse(status: status, headerFields: fields, body: ByteBuffer(string: message + "\n"))
    }
}
