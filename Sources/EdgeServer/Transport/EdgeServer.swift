import NIOCore
import NIOExtras
import NIOHTTP1
import NIOPosix

/// The HTTP/1.1 server: listens, applies the connection limits, and hands every request to a
/// ``Responder`` (see ``ResponderChain``).
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

    private let listener: NIOAsyncChannel<AcceptedConnection, Never>
    private let quiescing: ServerQuiescingHelper
    private let configuration: ServerConfiguration
    private let responder: any Responder
    private let dates: DateCache
    /// One executor per event loop, so each connection's task runs where its socket is served.
    private let executors: [EventLoopTaskExecutor]

    private init(
        listener: NIOAsyncChannel<AcceptedConnection, Never>, quiescing: ServerQuiescingHelper, configuration: ServerConfiguration,
        responder: any Responder, dates: DateCache, group: any EventLoopGroup
    ) {
        self.listener = listener
        self.quiescing = quiescing
        self.configuration = configuration
        self.responder = responder
        self.dates = dates
        executors = group.makeIterator().map(EventLoopTaskExecutor.init)
        port = listener.channel.localAddress?.port ?? configuration.port
    }

    /// Binds the listening socket. Connections wait in the backlog until ``run()`` is called.
    ///
    /// - Throws: ``ServerError/cannotBind(host:port:reason:)`` when the address cannot be used.
    public static func start(
        configuration: ServerConfiguration, responder: some Responder, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws(ServerError) -> EdgeServer {
        let quiescing = ServerQuiescingHelper(group: group)
        let counter = ConnectionCounter(limit: configuration.limits.maxConnections)
        let dates = DateCache()
        let listener: NIOAsyncChannel<AcceptedConnection, Never>
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
                .bind(host: configuration.host, port: configuration.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try Self.configure(channel, configuration: configuration, counter: counter, dates: dates)
                    }
                }
        } catch {
            throw .cannotBind(host: configuration.host, port: configuration.port, reason: "\(error)")
        }
        return EdgeServer(listener: listener, quiescing: quiescing, configuration: configuration, responder: responder, dates: dates, group: group)
    }

    /// Serves connections until ``shutdown()`` has closed the listener and every connection.
    public func run() async {
        let responder = responder
        let configuration = configuration
        let dates = dates
        let executors = executors
        await withDiscardingTaskGroup { group in
            do {
                try await listener.executeThenClose { connections in
                    for try await connection in connections {
                        guard case .serve(let channel) = connection else { continue }
                        let executor = executors.first { $0.eventLoop === channel.channel.eventLoop }
                        group.addTask(executorPreference: executor) {
                            await HTTPConnection(
                                channel: channel, responder: responder, limits: configuration.limits, accessLog: configuration.accessLog, dates: dates
                            ).run()
                        }
                    }
                }
            } catch {
                // The listener failed; connections already accepted are still served to the end.
            }
        }
    }

    /// Starts a graceful shutdown; ``run()`` returns when it is complete.
    public func shutdown() {
        quiescing.initiateShutdown(promise: nil)
    }

    /// Sets up an accepted connection's pipeline, or turns it away when over the cap.
    private static func configure(
        _ channel: any Channel, configuration: ServerConfiguration, counter: ConnectionCounter, dates: DateCache
    ) throws -> AcceptedConnection {
        let pipeline = channel.pipeline.syncOperations
        guard counter.admit() else {
            try pipeline.addHandler(HTTPResponseEncoder())
            try pipeline.addHandler(ConnectionRefusalHandler(date: dates.now().httpDate, limit: counter.limit))
            return .refused
        }
        channel.closeFuture.whenComplete { _ in counter.release() }
        let limits = configuration.limits
        var decoderLimits = NIOHTTPDecoderLimitConfiguration()
        decoderLimits.maxHeaderFieldSize = limits.maxRequestHeadBytes
        decoderLimits.maxHeaderListSize = limits.maxRequestHeadBytes
        // No pipelining assistance: it stops and restarts reading around every request (two
        // epoll_ctl calls each); the connection's task answers pipelined requests in order anyway.
        // No outbound header validation: every response field is an HTTPField, whose values
        // cannot hold CR, LF or NUL.
        try pipeline.configureHTTPServerPipeline(
            withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
            withEncoderConfiguration: .init(), withDecoderLimitConfiguration: decoderLimits)
        try pipeline.addHandler(ConnectionLifecycleHandler(limits: limits, accessLog: configuration.accessLog, dates: dates))
        return .serve(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
    }
}
