import HTTPTypes
import NIOHTTP1
import NIOHTTPTypesHTTP1

extension ServerResponse {
    /// Whether the status allows a body at all (not 1xx, 204 or 304).
    var allowsBody: Bool {
        status.kind != .informational && status != .noContent && status != .notModified
    }

    /// The HTTP/1.1 head as sent: the response's fields plus `Date` and `Content-Length` when
    /// missing, and `Connection` when the connection closes after it (or stays open for an
    /// HTTP/1.0 client that asked for keep-alive).
    func http1Head(date: String, connection: ConnectionDisposition) -> HTTPResponseHead {
        var headers = HTTPHeaders(headerFields)
        if !headerFields.contains(where: { $0.name == .date }) { headers.add(name: "Date", value: date) }
        if allowsBody && !headerFields.contains(where: { $0.name == .contentLength }) {
            headers.add(name: "Content-Length", value: String(body.readableBytes))
        }
        switch connection {
        case .keepAlive: break
        case .keepAliveHTTP10: headers.replaceOrAdd(name: "Connection", value: "keep-alive")
        case .close: headers.replaceOrAdd(name: "Connection", value: "close")
        }
        return HTTPResponseHead(
            version: .http1_1, status: HTTPResponseStatus(statusCode: status.code, reasonPhrase: status.reasonPhrase), headers: headers)
    }
}

/// What happens to the connection after a response.
enum ConnectionDisposition: Sendable, Equatable {
    /// HTTP/1.1 default: stays open, nothing to say.
    case keepAlive
    /// An HTTP/1.0 client sent `Connection: keep-alive`: stays open, and the response says so.
    case keepAliveHTTP10
    /// Closed after the response, which says `Connection: close`.
    case close
}
