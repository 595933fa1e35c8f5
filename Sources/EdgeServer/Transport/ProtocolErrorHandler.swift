import NIOCore
import NIOHTTP1

/// Answers requests the HTTP/1 parser rejects, then closes the connection: 431 when the head
/// is over ``ConnectionLimits/maxRequestHeadBytes``, 505 for a version other than HTTP/1.0 and
/// HTTP/1.1, 400 for anything else malformed. Other connections are not affected.
///
/// Sits after `HTTPServerPipelineHandler`, which holds a parser error back until the responses
/// to the requests before it are sent, so the error response is always the next in order.
final class ProtocolErrorHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let accessLog: AccessLog?
    private let dates: DateCache
    private let limits: ConnectionLimits
    private var responseInProgress = false
    private var failed = false

    init(accessLog: AccessLog?, dates: DateCache, limits: ConnectionLimits) {
        self.accessLog = accessLog
        self.dates = dates
        self.limits = limits
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        guard error is HTTPParserError || error is ByteToMessageDecoderError else {
            context.fireErrorCaught(error)
            return
        }
        // The decoder reports every later read as another error; the first one is answered.
        guard !failed else { return }
        failed = true
        guard !responseInProgress else {
            context.close(promise: nil)
            return
        }
        let response: ServerResponse
        switch error as? HTTPParserError {
        case .headerOverflow:
            response = .plainText(
                .init(code: 431, reasonPhrase: "Request Header Fields Too Large"),
                "the request line and header fields are over \(limits.maxRequestHeadBytes) bytes")
        case .invalidVersion:
            response = .plainText(.init(code: 505, reasonPhrase: "HTTP Version Not Supported"), "this server speaks HTTP/1.0 and HTTP/1.1")
        default:
            response = .plainText(.badRequest, "the request is not valid HTTP/1.1 (\(error))")
        }
        let stamp = dates.now()
        context.write(wrapOutboundOut(.head(response.http1Head(date: stamp.httpDate, connection: .close))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(response.body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
        accessLog?.record(
            client: context.channel.remoteAddress?.ipAddress ?? "-", date: stamp.logDate, requestLine: "-",
            status: response.status.code, bodyBytes: response.body.readableBytes)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.code >= 200: responseInProgress = true
        case .end: responseInProgress = false
        default: break
        }
        context.write(data, promise: promise)
    }
}
