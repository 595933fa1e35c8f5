import NIOCore
import NIOHTTP1
import NIOPosix

/// An HTTP server on 127.0.0.1 (a free port) that answers each path from a fixed table and 404
/// for any other: a deployed site as `--previous URL` fetches it, including the statuses and
/// broken files a real site sends only by accident.
struct RouteTableServer {
    /// The status and body for one path.
    struct Answer: Sendable {
        var status: HTTPResponseStatus
        var body: [UInt8]
    }

    private let channel: any Channel
    /// `http://127.0.0.1:<port>/`.
    let baseURL: String

    /// Starts answering `routes` (keyed by request target: `/bundles/manifest.json`).
    init(_ routes: [String: Answer]) async throws {
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                do {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(RouteHandler(routes: routes))
                    return channel.eventLoop.makeSucceededVoidFuture()
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        baseURL = "http://127.0.0.1:\(channel.localAddress?.port ?? 0)/"
    }

    /// Stops listening; connections still open close with their clients.
    func stop() async throws {
        try await channel.close()
    }
}

private final class RouteHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let routes: [String: RouteTableServer.Answer]

    init(routes: [String: RouteTableServer.Answer]) {
        self.routes = routes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let request) = unwrapInboundIn(data) else { return }
        let answer = routes[request.uri] ?? RouteTableServer.Answer(status: .notFound, body: Array("no such file\n".utf8))
        let head = HTTPResponseHead(version: request.version, status: answer.status, headers: ["Content-Length": String(answer.body.count)])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: answer.body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
