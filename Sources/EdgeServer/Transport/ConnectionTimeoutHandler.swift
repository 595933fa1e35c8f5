import NIOCore
import NIOHTTP1

/// Closes connections that hold the server without using it:
///
/// - a request must arrive completely (head and body) within
///   ``ConnectionLimits/requestTimeout`` of its first bytes, or of the connection opening, so a
///   client trickling header bytes ("slowloris") is cut off;
/// - a keep-alive connection may wait ``ConnectionLimits/idleTimeout`` for its next request.
///
/// No timer runs while the server is answering. Sits after `HTTPServerPipelineHandler`, so it
/// sees each request when its turn comes, and `channelReadComplete` whenever bytes arrive.
final class ConnectionTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private enum State {
        /// Between requests, no bytes of the next one seen yet.
        case idle
        /// A request has started (or the connection just opened) and is not complete.
        case receiving
        /// A complete request is being answered; `bytesArrived` when more bytes came meanwhile.
        case answering(bytesArrived: Bool)
    }

    private let requestTimeout: TimeAmount
    private let idleTimeout: TimeAmount
    private var state = State.receiving
    private var timer: Scheduled<Void>?
    /// Set when a request ended in the current read, whose `channelReadComplete` is then no
    /// sign of further bytes.
    private var requestEndedInThisRead = false

    init(limits: ConnectionLimits) {
        requestTimeout = .nanoseconds(Self.nanoseconds(limits.requestTimeout))
        idleTimeout = .nanoseconds(Self.nanoseconds(limits.idleTimeout))
    }

    func handlerAdded(context: ChannelHandlerContext) {
        arm(context: context, requestTimeout)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) {
            state = .answering(bytesArrived: false)
            requestEndedInThisRead = true
            timer?.cancel()
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        guard !requestEndedInThisRead else {
            requestEndedInThisRead = false
            context.fireChannelReadComplete()
            return
        }
        switch state {
        case .idle:
            state = .receiving
            arm(context: context, requestTimeout)
        case .answering:
            state = .answering(bytesArrived: true)
        case .receiving:
            break
        }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), case .answering(let bytesArrived) = state {
            requestEndedInThisRead = false
            state = bytesArrived ? .receiving : .idle
            arm(context: context, bytesArrived ? requestTimeout : idleTimeout)
        }
        context.write(data, promise: promise)
    }

    private func arm(context: ChannelHandlerContext, _ timeout: TimeAmount) {
        timer?.cancel()
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
            context.close(promise: nil)
        }
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
