#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTPTypes
import NIOCore
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

extension ChannelHandlerContext {
    /// Writes `response` as HTTP/1.1 parts from this handler: `head`, the body when `withBody`
    /// and the status allows one (bytes in memory as they are; a file range with `sendfile`, from
    /// a descriptor of its own that is closed once written), and the end. Nothing is flushed.
    /// Returns the body bytes written.
    func write(_ response: ServerResponse, head: HTTPResponseHead, withBody: Bool) -> Int {
        write(response, head: head, withBody: withBody, endPromise: nil)
    }

    /// Writes `response` as ``write(_:head:withBody:)`` does and flushes; `written` completes once
    /// the whole response is written (or failed), when the connection can close.
    func writeAndFlush(_ response: ServerResponse, head: HTTPResponseHead, withBody: Bool) -> (bodyBytes: Int, written: EventLoopFuture<Void>) {
        let written = eventLoop.makePromise(of: Void.self)
        let bodyBytes = write(response, head: head, withBody: withBody, endPromise: written)
        flush()
        return (bodyBytes, written.futureResult)
    }

    private func write(_ response: ServerResponse, head: HTTPResponseHead, withBody: Bool, endPromise: EventLoopPromise<Void>?) -> Int {
        write(NIOAny(HTTPServerResponsePart.head(head)), promise: nil)
        var bodyBytes = 0
        if withBody, response.allowsBody, response.body.readableBytes > 0 {
            writeBody(response.body)
            bodyBytes = response.body.readableBytes
        }
        write(NIOAny(HTTPServerResponsePart.end(nil)), promise: endPromise)
        return bodyBytes
    }

    private func writeBody(_ body: ResponseBody) {
        switch body.storage {
        case .bytes(let buffer):
            write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(buffer))), promise: nil)
        case .file(let file, let offset):
            // NIO lets one handle be used by one write at a time; a duplicate per response lets
            // connections on every event loop send from the same open file.
            let duplicate = dup(file.descriptor)
            guard duplicate >= 0 else {
                fireErrorCaught(IOError(errnoCode: errno, reason: "dup"))
                return
            }
            let handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: duplicate)
            let region = FileRegion(fileHandle: handle, readerIndex: offset, endIndex: offset + body.readableBytes)
            let written = eventLoop.makePromise(of: Void.self)
            written.futureResult.whenComplete { _ in try? handle.close() }
            write(NIOAny(HTTPServerResponsePart.body(.fileRegion(region))), promise: written)
        }
    }
}
