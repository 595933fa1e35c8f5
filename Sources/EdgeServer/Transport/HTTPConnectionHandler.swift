import HTTPTypes
import NIOCore
import NIOHTTP1

/// Answers one client connection's requests, in order, on the connection's event loop.
///
/// Each complete request goes to the responder's fast path
/// (``Responder/respondImmediately(to:)``) right where it was read, so a request answered from
/// memory costs no task, no executor hop and no allocation beyond its response; responses written
/// in one read are flushed together. A request the fast path declines is answered by
/// ``Responder/respond(to:)`` in a task, and the requests pipelined behind it wait for it.
///
/// `HEAD` gets the `GET` head without the body. A request the transport refuses (see
/// ``ServerRequest/init(head:isFromLoopback:limits:)``) or whose body is over the limit is
/// answered and the connection closed. When more than ``maxWaitingRequests`` pipelined requests
/// wait, the handler stops reading until they are answered. Once the server shuts down
/// (`ChannelShouldQuiesceEvent`), the next response says `Connection: close` and the connection
/// closes after it. A streamed response (server-sent events) is the connection's last: its
/// chunks are written as they come, and the stream is cancelled when the client goes away or the
/// server shuts down. Timeouts, closing idle connections and parser errors are the
/// ``ConnectionLifecycleHandler``'s, which hears of every response written.
final class HTTPConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// How many complete requests may wait behind one being answered before reading pauses.
    static let maxWaitingRequests = 16

    /// A request read completely (or until its body was refused).
    private struct ReceivedRequest {
        var head: HTTPRequestHead
        /// The body, whose bytes are taken from the memory budget until the request is answered.
        var body: ByteBuffer
        var refusal: BodyRefusal?
    }

    /// Why a request body was not read to its end.
    fileprivate enum BodyRefusal {
        /// Over ``ConnectionLimits/maxRequestBodyBytes``: 413.
        case tooLarge
        /// The ``MemoryBudget`` has no room for it: 503 with `Retry-After`.
        case overBudget
    }

    private let responder: any Responder
    private let limits: ConnectionLimits
    private let accessLog: AccessLog?
    private let dates: DateCache
    /// This connection's place in the connection count, given back when it becomes a stream.
    private let slot: ConnectionSlot
    /// What request bodies are taken from while they are received and answered.
    private let budget: MemoryBudget?

    /// The peer's address for the access log, and whether it is loopback.
    private var client = "-"
    private var isFromLoopback = false
    /// The request being received: its head and the body so far.
    private var receiving: (head: HTTPRequestHead, body: ByteBuffer)?
    /// Complete requests not answered yet, oldest first.
    private var waiting = CircularBuffer<ReceivedRequest>(initialCapacity: 4)
    /// Whether a task is answering the oldest request.
    private var answeringLater = false
    /// Set once a response closes the connection: nothing after it is answered.
    private var closing = false
    /// Set once the server shuts down: the next response closes the connection.
    private var shuttingDown = false
    private var isActive = true
    /// Responses written since the last flush.
    private var unflushed = false
    /// A read withheld because too many requests wait.
    private var heldRead = false
    /// The task writing a streamed response's chunks.
    private var streaming: Task<Void, Never>?

    init(
        responder: any Responder, limits: ConnectionLimits, accessLog: AccessLog?, dates: DateCache, slot: ConnectionSlot, budget: MemoryBudget?
    ) {
        self.responder = responder
        self.limits = limits
        self.accessLog = accessLog
        self.dates = dates
        self.slot = slot
        self.budget = budget
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let peer = context.channel.remoteAddress
        client = peer?.ipAddress ?? "-"
        isFromLoopback = peer.map(Self.isLoopback) ?? false
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            receiving = (head, ByteBuffer())
            if head.version.minor == 1, head.headers[canonicalForm: "expect"].contains(where: { $0.lowercased() == "100-continue" }) {
                sendContinue(context: context)
            }
        case .body(var chunk):
            guard let request = receiving else { return }
            if request.body.readableBytes + chunk.readableBytes > limits.maxRequestBodyBytes {
                refuse(request, .tooLarge, context: context)
            } else if let budget, !budget.reserve(chunk.readableBytes) {
                refuse(request, .overBudget, context: context)
            } else if request.body.readableBytes == 0 {
                receiving?.body = chunk
            } else {
                receiving?.body.writeBuffer(&chunk)
            }
        case .end:
            guard let request = receiving else { return }
            receiving = nil
            received(ReceivedRequest(head: request.head, body: request.body), context: context)
        }
    }

    /// Answers the request being received (then closes) without waiting for the rest of its body.
    private func refuse(_ request: (head: HTTPRequestHead, body: ByteBuffer), _ refusal: BodyRefusal, context: ChannelHandlerContext) {
        receiving = nil
        budget?.release(request.body.readableBytes)
        received(ReceivedRequest(head: request.head, body: ByteBuffer(), refusal: refusal), context: context)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        flushIfNeeded(context: context)
        context.fireChannelReadComplete()
    }

    func channelInactive(context: ChannelHandlerContext) {
        isActive = false
        budget?.release(receiving?.body.readableBytes ?? 0)
        receiving = nil
        discardWaitingRequests()
        streaming?.cancel()
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            shuttingDown = true
            streaming?.cancel()
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Parser errors are answered by the lifecycle handler; anything else ends the connection.
        context.close(promise: nil)
    }

    func read(context: ChannelHandlerContext) {
        if waiting.count > Self.maxWaitingRequests {
            heldRead = true
        } else {
            context.read()
        }
    }

    private func received(_ request: ReceivedRequest, context: ChannelHandlerContext) {
        guard !closing else {
            budget?.release(request.body.readableBytes)
            return
        }
        waiting.append(request)
        answerWaitingRequests(context: context)
    }

    /// Answers waiting requests in order until one must wait for a task (or none is left).
    private func answerWaitingRequests(context: ChannelHandlerContext) {
        while !answeringLater, !closing, let request = waiting.popFirst() {
            var disposition = Self.disposition(after: request.head)
            let response: ServerResponse
            if let refusal = request.refusal {
                response = refusal.response(limits: limits, budget: budget)
                disposition = .close
            } else {
                do {
                    let serverRequest = try ServerRequest(
                        head: request.head, body: request.body, isFromLoopback: isFromLoopback, limits: limits)
                    guard let immediate = responder.respondImmediately(to: serverRequest) else {
                        answerLater(serverRequest, head: request.head, disposition: disposition, context: context)
                        return
                    }
                    response = immediate
                } catch {
                    response = error.response
                    disposition = .close
                }
            }
            budget?.release(request.body.readableBytes)
            write(response, toRequest: request.head, disposition: disposition, context: context)
        }
        if heldRead, waiting.count <= Self.maxWaitingRequests {
            heldRead = false
            context.read()
        }
    }

    /// Drops the requests not answered yet, giving their bodies back to the budget.
    private func discardWaitingRequests() {
        budget?.release(waiting.reduce(0) { $0 + $1.body.readableBytes })
        waiting.removeAll()
    }

    /// Keep-alive as the request asks, but for an HTTP/1.0 request with `Transfer-Encoding`,
    /// whose framing cannot be trusted (RFC 9112 §6.1): the connection closes after it.
    private static func disposition(after head: HTTPRequestHead) -> ConnectionDisposition {
        guard head.isKeepAlive else { return .close }
        guard head.version.minor == 0 else { return .keepAlive }
        return head.headers.contains(name: "transfer-encoding") ? .close : .keepAliveHTTP10
    }

    /// Answers `Expect: 100-continue` with `100 Continue` (RFC 9110 §10.1.1), so the client
    /// sends the body, unless an earlier request on the connection is still being answered (the
    /// interim response would come before its response); the client then sends the body after
    /// waiting a little.
    private func sendContinue(context: ChannelHandlerContext) {
        guard waiting.isEmpty, !answeringLater, !closing else { return }
        var buffer = context.channel.allocator.buffer(capacity: Self.continueLine.utf8CodeUnitCount)
        buffer.writeStaticString(Self.continueLine)
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(buffer)), promise: nil)
    }

    private static let continueLine: StaticString = "HTTP/1.1 100 Continue\r\n\r\n"

    /// Has a task answer `request`, then writes and flushes the response and goes on with the
    /// requests that waited behind it.
    private func answerLater(_ request: ServerRequest, head: HTTPRequestHead, disposition: ConnectionDisposition, context: ChannelHandlerContext) {
        answeringLater = true
        let responder = responder
        context.eventLoop.makeFutureWithTask {
            await Self.answer(request, with: responder)
        }.assumeIsolated().whenSuccess { [self] response in
            answeringLater = false
            budget?.release(request.body.readableBytes)
            guard isActive else { return }
            write(response, toRequest: head, disposition: disposition, context: context)
            answerWaitingRequests(context: context)
            flushIfNeeded(context: context)
        }
    }

    /// The responder's answer; 502 or 504 when it has none.
    private static func answer(_ request: ServerRequest, with responder: any Responder) async -> ServerResponse {
        do {
            return try await responder.respond(to: request)
        } catch {
            return .plainText(error.gatewayStatus, error.description, fields: error.gatewayFields)
        }
    }

    /// Writes the response (without body for `HEAD`, 204 and 304) and logs it; a response that
    /// closes the connection (or is the first after a shutdown began) is flushed and followed by a
    /// half-close, which waits for the bytes. A streamed body is written by a task of its own,
    /// and logged with 0 bytes when it starts.
    private func write(_ response: ServerResponse, toRequest head: HTTPRequestHead, disposition: ConnectionDisposition, context: ChannelHandlerContext) {
        var response = response
        if let file = response.body.file, !file.isUnchanged {
            response = .plainText(.serviceUnavailable, "the file changed on disk while being served; retry", fields: [.retryAfter: "1"])
        }
        let disposition = shuttingDown || response.body.stream != nil ? .close : disposition
        let stamp = dates.now()
        let withBody = head.method != .HEAD
        let sentBytes: Int
        if let chunks = response.body.stream, withBody, response.allowsBody {
            sentBytes = 0
            closing = true
            discardWaitingRequests()
            _ = context.writeAndFlush(response, date: stamp.httpDate, connection: .close, withBody: true)
            unflushed = false
            streaming = Self.write(chunks, to: context.channel)
            slot.release()
        } else if disposition == .close {
            closing = true
            discardWaitingRequests()
            let written: EventLoopFuture<Void>
            (sentBytes, written) = context.writeAndFlush(response, date: stamp.httpDate, connection: .close, withBody: withBody)
            unflushed = false
            // Closing drops bytes not yet written: half-close first, which waits for them.
            written.assumeIsolated().whenComplete { _ in
                context.close(mode: .output).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            }
        } else {
            sentBytes = context.write(response, date: stamp.httpDate, connection: disposition, withBody: withBody)
            unflushed = true
        }
        // A stream's end is the connection's: no idle or request deadline runs while it lasts.
        if streaming == nil {
            context.triggerUserOutboundEvent(ConnectionLifecycleHandler.ResponseWritten(), promise: nil)
        }
        accessLog?.record(
            client: client, date: stamp.logDate,
            requestLine: "\(head.method.rawValue) \(head.uri) HTTP/\(head.version.major).\(head.version.minor)",
            status: response.status.code, bodyBytes: sentBytes)
    }

    /// Writes and flushes each chunk as `chunks` yields it; when it finishes (or its task is
    /// cancelled, or a write fails) half-closes the connection, which waits for the bytes, then
    /// closes it.
    private static func write(_ chunks: AsyncStream<ByteBuffer>, to channel: any Channel) -> Task<Void, Never> {
        Task {
            for await chunk in chunks {
                do {
                    try await channel.writeAndFlush(IOData.byteBuffer(chunk))
                } catch {
                    break
                }
            }
            try? await channel.close(mode: .output)
            try? await channel.close()
        }
    }

    private func flushIfNeeded(context: ChannelHandlerContext) {
        guard unflushed else { return }
        unflushed = false
        context.flush()
    }

    /// 127.0.0.0/8, ::1 and IPv4-mapped loopback.
    static func isLoopback(_ address: SocketAddress) -> Bool {
        guard let ip = address.ipAddress else { return address.protocol == .unix }
        return ip.hasPrefix("127.") || ip == "::1" || ip.hasPrefix("::ffff:127.")
    }
}

extension HTTPConnectionHandler.BodyRefusal {
    /// The answer to a request whose body was refused; the connection closes after it.
    func response(limits: ConnectionLimits, budget: MemoryBudget?) -> ServerResponse {
        switch self {
        case .tooLarge:
            .plainText(.contentTooLarge, "request bodies are limited to \(limits.maxRequestBodyBytes) bytes")
        case .overBudget:
            .plainText(
                .serviceUnavailable, "the request bodies in memory fill the server's \(budget?.limit ?? 0)-byte budget; retry shortly",
                fields: [.retryAfter: "1"])
        }
    }
}
