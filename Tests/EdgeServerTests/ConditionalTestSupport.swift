@testable import EdgeServer
import HTTPTypes
import NIOCore
import SystemSupport

/// A site with one resource in two representations, like the file origin serves a bundle and its
/// `.gz` sidecar: identity by default, gzip when `Accept-Encoding` mentions gzip.
struct TwoRepresentationOrigin: Responder {
    static let identityBody = ByteBuffer(bytes: (0..<1000).map { UInt8($0 % 251) })
    static let gzipBody = ByteBuffer(bytes: (0..<600).map { UInt8(255 - $0 % 199) })
    static let identityTag = "\"id-0123abcd\""
    static let gzipTag = "\"id-0123abcd-gz\""
    /// Sun, 06 Nov 1994 08:49:37 GMT
    static let lastModified = HTTPDate(secondsSince1970: 784_111_777)

    /// The status to answer with (404 to check that other statuses pass through).
    var status: HTTPResponse.Status = .ok

    func respond(to request: ServerRequest) async throws(OriginUnavailable) -> ServerResponse {
        let gzip = request.headerFields[.acceptEncoding]?.contains("gzip") ?? false
        var fields: HTTPFields = [
            .contentType: "application/octet-stream",
            .eTag: gzip ? Self.gzipTag : Self.identityTag,
            .lastModified: Self.lastModified.imfFixdate,
            .cacheControl: "public, max-age=31536000, immutable",
            .vary: "Accept-Encoding",
            .acceptRanges: "bytes",
            .accessControlAllowOrigin: "*",
        ]
        if gzip {
            fields[.contentEncoding] = "gzip"
        }
        let body = gzip ? Self.gzipBody : Self.identityBody
        fields[.contentLength] = String(body.readableBytes)
        return ServerResponse(status: status, headerFields: fields, body: body)
    }
}

/// A request for `path` with the given header fields.
func request(
    _ method: HTTPRequest.Method = .get, _ fields: HTTPFields = [:], path: String = "/bundles/a.bundle", query: String? = nil
) -> ServerRequest {
    ServerRequest(method: method, path: path, query: query, headerFields: fields)
}

extension ServerResponse {
    /// The body's bytes.
    var bytes: [UInt8] { body.bytes }
}

extension ResponseBody {
    /// The body's bytes, read from the file for a file range (none for a stream, whose chunks
    /// only the transport reads).
    var bytes: [UInt8] {
        switch storage {
        case .bytes(let buffer):
            return Array(buffer.readableBytesView)
        case .file(let file, let offset):
            var bytes = [UInt8](repeating: 0, count: readableBytes)
            let read = bytes.withUnsafeMutableBytes { pread(file.descriptor, $0.baseAddress, readableBytes, off_t(offset)) }
            return Array(bytes.prefix(max(read, 0)))
        case .stream:
            return []
        }
    }
}

extension HTTPDate {
    /// This date moved by `seconds`.
    func adding(_ seconds: Int64) -> HTTPDate {
        HTTPDate(secondsSince1970: secondsSince1970 + seconds)
    }
}
