import NIOConcurrencyHelpers
import NIOCore
import NIOExtras
import NIOHTTP1
import NIOPosix

/// The HTTP/1.1 server: listens, applies the connection limits, and hands every request to a
/// ``Responder`` (see ``ResponderChain``) on the connection's event loop (see
/// ``HTTPConnectionHandler``).
///
/// ```swift
/// let server = try await EdgeServer.start(configuration: configuration, responder: chain.responder)
/// print("Serving at http://127.0.0.1:\(server.port)/")
/// await server.run()            // returns once shutdown() has finished
/// ```
///
/// ``shutdown()`` is graceful: the listening socket closes, idle keep-alive connections close
/// at once, and requests in flight are answered (with `Connection: close`) before theirs do.
public final class EdgeServer: Sendable {
    /// The port the server listens on (the one chosen by the system when configured as 0).
    public let port: Int
    /// The most connections held at once: ``ConnectionLimits/maxConnections``, or fewer when the
    /// process's open-file limit (`ulimit -n`) cannot hold that many even after raising its soft
    /// limit to the hard one (see ``OpenFileLimit``). Connections over it get 503.
    public let connectionCap: Int

    private let quiescing: ServerQuiescingHelper
    /// Succeeds once a shutdown has closed the listener and every connection.
    private let stopped: EventLoopPromise<Void>
    private let shutdownStarted = NIOLockedValueBox(false)

    private init(listener: any Channel, quiescing: ServerQuiescingHelper, configuration: ServerConfiguration, connectionCap: Int) {
        self.quiescing = quiescing
        self.connectionCap = connectionCap
        stopped = listener.eventLoop.makePromise()
        port = listener.localAddress?.port ?? configuration.port
        // A listener that fails on its own ends the server as a shutdown does.
        listener.closeFuture.whenComplete { [self] _ in shutdown() }
    }

    /// Binds the listening socket and starts serving connections.
    ///
    /// - Throws: ``ServerError/cannotBind(host:port:reason:)`` when the address cannot be used.
    public static func start(
        configuration: ServerConfiguration, responder: some Responder, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws(ServerError) -> EdgeServer {
        let quiescing = ServerQuiescingHelper(group: group)
        let wanted = configuration.limits.maxConnections
        let counter = ConnectionCounter(
            limit: OpenFileLimit.raiseCurrent(toHold: wanted)?.connectionCap(wanting: wanted) ?? wanted,
            perPeerLimit: configuration.limits.maxConnectionsPerPeer)
        let dates = DateCache()
        let responder: any Responder = responder
        let listener: any Channel
        do {
            listener = try await ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 1024)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .serverChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(quiescing.makeServerChannelHandler(channel: channel))
                    }
                }
                .childChannelOption(.maxMessagesPerRead, value: 16)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try Self.configure(channel, configuration: configuration, responder: responder, counter: counter, dates: dates)
                    }
                }
                .bind(host: configuration.host, port: configuration.port).get()
        } catch {
            throw .cannotBind(host: configuration.host, port: configuration.port, reason: "\(error)")
        }
        return EdgeServer(listener: listener, quiescing: quiescing, configuration: configuration, connectionCap: counter.limit)
    }

    /// Waits until ``shutdown()`` has closed the listener and every connection.
    public func run() async {
        try? await stopped.futureResult.get()
    }

    /// Starts a graceful shutdown; ``run()`` returns when it is complete. Later calls do nothing.
    public func shutdown() {
        let isFirst = shutdownStarted.withLockedValue { started in
            defer { started = true }
            return !started
        }
        quiescing.initiateShutdown(promise: isFirst ? stopped : nil)
    }

    /// Sets up an accepted connection's pipeline, or turns it away when over the cap.
    private static func configure(
        _ channel: any Channel, configuration: ServerConfiguration, responder: any Responder, counter: ConnectionCounter, dates: DateCache
    ) throws {
        let pipeline = channel.pipeline.syncOperations
        let slot: ConnectionSlot
        switch counter.admit(peer: channel.remoteAddress?.ipAddress ?? "-") {
        case .success(let admitted):
            slot = admitted
        case .failure(let refusal):
            try pipeline.addHandler(ConnectionRefusalHandler(date: dates.now().httpDate, refusal: refusal, counter: counter))
            return
        }
        channel.closeFuture.whenComplete { _ in slot.release() }
        let limits = configuration.limits
        var decoderLimits = NIOHTTPDecoderLimitConfiguration()
        decoderLimits.maxHeaderFieldSize = limits.maxRequestHeadBytes
        decoderLimits.maxHeaderListSize = limits.maxRequestHeadBytes
        // NIO's request decoder, but not the rest of its HTTP/1 server pipeline: no pipelining
        // assistance (it stops and restarts reading around every request, two epoll_ctl calls
        // each; HTTPConnectionHandler answers pipelined requests in order anyway), and no response
        // encoder (responses are written as bytes straight from their HTTPFields, see
        // ServerResponse.writeHTTP1Head).
        try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes, limitConfiguration: decoderLimits)))
        try pipeline.addHandler(ConnectionLifecycleHandler(limits: limits, accessLog: configuration.accessLog, dates: dates))
        try pipeline.addHandler(
            HTTPConnectionHandler(
                responder: responder, limits: limits, accessLog: configuration.accessLog, dates: dates, slot: slot, budget: configuration.memoryBudget))
    }
}
