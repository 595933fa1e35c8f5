import HTTPTypes
import NIOCore

extension ServerResponse {
    /// A short `text/plain` response that no cache may store: errors and refusals.
    ///
    /// The body is the status line and `detail`, never content-coded, so a client that asked
    /// for gzip can always read it.
    static func plainText(_ status: HTTPResponse.Status, _ detail: String, fields: HTTPFields = [:]) -> ServerResponse {
        var headerFields = fields
        headerFields[.contentType] = "text/plain; charset=utf-8"
        headerFields[.cacheControl] = "no-store"
        headerFields[.xContentTypeOptions] = "nosniff"
        let body = ByteBuffer(string: "\(status.code) \(status.reasonPhrase): \(detail)\n")
        headerFields[.contentLength] = String(body.readableBytes)
        return ServerResponse(status: status, headerFields: headerFields, body: body)
    }
}

extension HTTPField.Name {
    /// `X-Content-Type-Options`, sent as `nosniff` with every response.
    static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
}
