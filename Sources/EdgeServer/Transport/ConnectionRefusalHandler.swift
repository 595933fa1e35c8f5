import NIOCore

/// Turns away a connection over ``ConnectionLimits/maxConnections`` or
/// ``ConnectionLimits/maxConnectionsPerPeer``: answers 503 with
/// `Retry-After` at once, ignores what the client sends, and closes once the client has
/// closed or after a second, so the client reads the answer instead of a reset.
final class ConnectionRefusalHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = IOData

    private let date: String
    private let reason: String

    init(date: String, refusal: ConnectionCounter.Refusal, counter: ConnectionCounter) {
        self.date = date
        switch refusal {
        case .full: reason = "the server already has \(counter.limit) open connections"
        case .peerFull: reason = "your address already has \(counter.perPeerLimit) open connections to this server"
        }
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let response = ServerResponse.plainText(.serviceUnavailable, "\(reason); retry shortly", fields: [.retryAfter: "1"])
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
