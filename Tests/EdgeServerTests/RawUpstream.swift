import EdgeServer
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// An upstream on 127.0.0.1 that answers every request with the bytes a test scripts, HTTP or
/// not: for upstreams that misbehave (an interim status as the answer, a body where none may
/// be, a page built from what the request said, a body that stops halfway). Each answer is
/// written, then the connection closes (unless `closing` is false: it then stays open until
/// the client closes it), so every request comes on a connection of its own.
final class RawUpstream: Sendable {
    /// Given the request head (request line and fields, as received), the bytes to answer with.
    typealias Script = @Sendable (String) -> String

    let port: Int
    private let channel: any Channel
    private let heads = NIOLockedValueBox<[String]>([])

    private init(channel: any Channel) {
        self.channel = channel
        port = channel.localAddress!.port!
    }

    /// The request heads received so far.
    var requests: [String] { heads.withLockedValue { $0 } }

    /// Runs `body` against an upstream answering with `script`, then stops it.
    static func with(_ script: @escaping Script, closing: Bool = true, _ body: (RawUpstream) async throws -> Void) async throws {
        let recorder = NIOLockedValueBox<RawUpstream?>(nil)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Handler(script: script, closing: closing) { head in
                        recorder.withLockedValue { $0?.heads.withLockedValue { $0.append(head) } }
                    })
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let upstream = RawUpstream(channel: channel)
        recorder.withLockedValue { $0 = upstream }
        do {
            try await body(upstream)
        } catch {
            try? await channel.close()
            throw error
        }
        try await channel.close()
    }

    /// Reads a request head, answers it with the script's bytes and closes.
    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private let script: Script
        private let closing: Bool
        private let record: @Sendable (String) -> Void
        private var received = ""

        init(script: @escaping Script, closing: Bool, record: @escaping @Sendable (String) -> Void) {
            self.script = script
            self.closing = closing
            self.record = record
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            received += String(buffer: unwrapInboundIn(data))
            guard let end = received.range(of: "\r\n\r\n") else { return }
            let head = String(received[..<end.lowerBound])
            received = ""
            record(head)
            let written = context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: script(head))))
            if closing {
                written.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            }
        }
    }
}

/// The `X-Forwarded-Host` of a request head a ``RawUpstream`` received, if any.
func forwardedHost(in head: String) -> String? {
    head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("x-forwarded-host:") }
        .map { $0.dropFirst("x-forwarded-host:".count).trimmingCharacters(in: .whitespaces) }
}

/// A complete HTTP/1.1 response that closes its connection, with `fields` and `body`.
func rawResponse(_ fields: [String], body: String = "", status: String = "200 OK") -> String {
    (["HTTP/1.1 \(status)", "Connection: close"] + fields + ["", body]).joined(separator: "\r\n")
}

/// Runs `body` against the chain `serve --upstream` runs (see `Serve.swift`): the conditional
/// layer, the edge configured for the upstream, and an ``UpstreamOrigin`` to `upstream`.
func withProxy(
    to upstream: RawUpstream, forwardedHost: String? = nil, storesSetCookie: Bool = false, memoryBudget: MemoryBudget? = nil,
    readTimeout: TimeAmount = .seconds(10), _ body: (RunningServer) async throws -> Void
) async throws {
    let configuration = UpstreamConfiguration(
        address: try UpstreamAddress(parsing: "http://127.0.0.1:\(upstream.port)"), readTimeout: readTimeout, forwardedHost: forwardedHost,
        memoryBudget: memoryBudget)
    let origin = UpstreamOrigin(configuration: configuration)
    let chain = ResponderChain.serve(origin: origin, edge: EdgeConfiguration(inFrontOf: configuration, storesSetCookie: storesSetCookie))
    do {
        try await withServer(responder: chain.responder, memoryBudget: memoryBudget, body)
    } catch {
        await origin.shutdown()
        throw error
    }
    await origin.shutdown()
}
