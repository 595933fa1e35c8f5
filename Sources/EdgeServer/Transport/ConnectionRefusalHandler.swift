import NIOCore

/// Turns away a connection over ``ConnectionLimits/maxConnections``: answers 503 with
/// `Retry-After` at once, ignores what the client sends, and closes once the client has
/// closed or after a second, so the client reads the answer instead of a reset.
final class ConnectionRefusalHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = IOData

    private let date: String
    private let limit: Int

    init(date: String, limit: Int) {
        self.date = date
        self.limit = limit
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let response = ServerResponse.plainText(
            .serviceUnavailable, "the server already has \(limit) open connections; retry shortly", fields: [.retryAfter: "1"])
        let (_, written) = context.writeAndFlush(response, date: date, connection: .close, withBody: true)
        written.assumeIsolated().whenComplete { _ in
            context.close(mode: .output, promise: nil)
        }
        context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(1)) {
            context.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
