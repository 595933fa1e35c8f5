import NIOCore
import NIOHTTP1

/// Decides when a connection closes, around the requests it carries:
///
/// - **Timeouts.** A request must arrive completely (head and body) within
///   ``ConnectionLimits/requestTimeout`` of its first bytes, or of the connection opening, so a
///   client trickling header bytes ("slowloris") is cut off; a keep-alive connection may wait
///   ``ConnectionLimits/idleTimeout`` for its next request. No deadline applies while requests
///   are being answered.
/// - **Graceful shutdown** (`ChannelShouldQuiesceEvent`): an idle connection closes at once; a
///   busy one is left to the ``HTTPConnectionHandler``, which the event reaches next and which
///   closes it after the current response (sent with `Connection: close`).
/// - **Requests the parser rejects**: once the requests before it are answered, 431 (head over
///   ``ConnectionLimits/maxRequestHeadBytes``), 505 (a version other than HTTP/1.0 and 1.1) or
///   400, then the connection closes. Other connections are not affected.
///
/// It counts complete requests in and responses out (the ``HTTPConnectionHandler`` sends a
/// ``ResponseWritten`` event after each), so pipelined requests (which reach the
/// ``HTTPConnectionHandler`` in order) are accounted for without holding reads back.
final class ConnectionLifecycleHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// The outbound user event that says one response has been written completely.
    struct ResponseWritten: Sendable {}

    private let limits: ConnectionLimits
    private let accessLog: AccessLog?
    private let dates: DateCache
    /// ``ConnectionLimits/requestTimeout`` and ``ConnectionLimits/idleTimeout``, converted once.
    private let requestTimeout: TimeAmount
    private let idleTimeout: TimeAmount

    /// Complete requests received and not answered yet.
    private var unanswered = 0
    /// With nothing to answer: whether a request has started (or the connection just opened).
    private var receiving = true
    /// Whether bytes arrived while answering (the start of a pipelined request).
    private var bytesArrivedWhileAnswering = false
    /// Set when a request ended in the current read, whose `channelReadComplete` is then no sign
    /// of further bytes.
    private var requestEndedInThisRead = false
    /// A parser error waiting for the responses before it; set once, the connection then ends.
    private var parserError: (any Error)?
    /// When the connection closes unless a request completes first; nil while answering.
    private var deadline: NIODeadline?
    /// The one scheduled check of ``deadline``, and when it runs. Moving the deadline later
    /// keeps it (a keep-alive request costs no timer operation); a check that finds the deadline
    /// moved schedules the next one. Only a deadline earlier than the check reschedules it.
    private var timer: (check: Scheduled<Void>, at: NIODeadline)?

    init(limits: ConnectionLimits, accessLog: AccessLog?, dates: DateCache) {
        self.limits = limits
        self.accessLog = accessLog
        self.dates = dates
        requestTimeout = TimeAmount(limits.requestTimeout)
        idleTimeout = TimeAmount(limits.idleTimeout)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        arm(context: context, requestTimeout)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.check.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) {
            unanswered += 1
            requestEndedInThisRead = true
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if requestEndedInThisRead {
            requestEndedInThisRead = false
        } else if unanswered > 0 {
            bytesArrivedWhileAnswering = true
        } else if !receiving {
            receiving = true
            arm(context: context, requestTimeout)
        }
        context.fireChannelReadComplete()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent, unanswered == 0 {
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError || error is ByteToMessageDecoderError else {
            context.fireErrorCaught(error)
            return
        }
        // The decoder reports every later read as another error; the first one is answered.
        guard parserError == nil else { return }
        parserError = error
        if unanswered == 0 { answerParserError(context: context) }
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is ResponseWritten else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        responseEnded(context: context)
        promise?.succeed()
    }

    private func responseEnded(context: ChannelHandlerContext) {
        unanswered = max(unanswered - 1, 0)
        guard unanswered == 0 else { return }
        if parserError != nil {
            answerParserError(context: context)
        } else {
            receiving = bytesArrivedWhileAnswering
            arm(context: context, receiving ? requestTimeout : idleTimeout)
        }
        bytesArrivedWhileAnswering = false
    }

    private func answerParserError(context: ChannelHandlerContext) {
        deadline = nil
        let response = ServerResponse.rejecting(parserError, limits: limits)
        let stamp = dates.now()
        let (bodyBytes, written) = context.writeAndFlush(response, date: stamp.httpDate, connection: .close, withBody: true)
        written.assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
        accessLog?.record(
            client: context.channel.remoteAddress?.ipAddress ?? "-", date: stamp.logDate, requestLine: "-",
            status: response.status.code, bodyBytes: bodyBytes)
    }

    private func arm(context: ChannelHandlerContext, _ timeout: TimeAmount) {
        let newDeadline = NIODeadline.now() + timeout
        deadline = newDeadline
        if let timer, timer.at <= newDeadline { return }
        timer?.check.cancel()
        schedule(context: context, at: newDeadline)
    }

    private func schedule(context: ChannelHandlerContext, at time: NIODeadline) {
        let check = context.eventLoop.assumeIsolated().scheduleTask(deadline: time) { [self] in
            timer = nil
            guard let deadline else { return }
            if deadline <= .now() {
                context.close(promise: nil)
            } else {
                schedule(context: context, at: deadline)
            }
        }
        timer = (check, time)
    }
}
