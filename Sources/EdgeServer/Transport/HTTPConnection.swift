import HTTPTypes
import NIOCore
import NIOHTTP1

/// One client connection: reads its requests in order, has the responder answer each, writes
/// each response with one flush, logs it, and keeps the connection while both sides want to.
///
/// Pipelined requests are answered one after the other, in order. `HEAD` gets the `GET` head
/// without the body. A request the transport refuses (see ``ServerRequest/init(head:isFromLoopback:limits:)``)
/// or whose body is over the limit is answered and the connection closed.
struct HTTPConnection: Sendable {
    let channel: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>
    let responder: any Responder
    let limits: ConnectionLimits
    let accessLog: AccessLog?
    let dates: DateCache

    func run() async {
        let peer = channel.channel.remoteAddress
        let client = peer?.ipAddress ?? "-"
        let isFromLoopback = peer.map(Self.isLoopback) ?? false
        do {
            try await channel.executeThenClose { inbound, outbound in
                var parts = inbound.makeAsyncIterator()
                while let part = try await parts.next() {
                    guard case .head(let head) = part else { continue }
                    var disposition: ConnectionDisposition = head.isKeepAlive ? (head.version.minor == 0 ? .keepAliveHTTP10 : .keepAlive) : .close
                    let response: ServerResponse
                    if try await readBody(from: &parts) {
                        response = await answer(head, isFromLoopback: isFromLoopback, disposition: &disposition)
                    } else {
                        response = .plainText(.contentTooLarge, "request bodies are limited to \(limits.maxRequestBodyBytes) bytes")
                        disposition = .close
                    }
                    let stamp = dates.now()
                    let sentBytes = try await write(response, toRequest: head, disposition: disposition, date: stamp.httpDate, outbound)
                    accessLog?.record(
                        client: client, date: stamp.logDate,
                        requestLine: "\(head.method.rawValue) \(head.uri) HTTP/\(head.version.major).\(head.version.minor)",
                        status: response.status.code, bodyBytes: sentBytes)
                    if disposition == .close {
                        // Closing drops bytes not yet written: half-close first, which waits for them.
                        try await channel.channel.close(mode: .output).get()
                        return
                    }
                }
            }
        } catch {
            // The client went away or the connection failed: there is nobody left to answer.
        }
    }

    /// Reads the request body up to its end. Returns false when it is over the limit.
    private func readBody(from parts: inout NIOAsyncChannelInboundStream<HTTPServerRequestPart>.AsyncIterator) async throws -> Bool {
        var bodyBytes = 0
        while let part = try await parts.next() {
            switch part {
            case .body(let chunk):
                bodyBytes += chunk.readableBytes
                if bodyBytes > limits.maxRequestBodyBytes { return false }
            case .end:
                return true
            case .head:
                throw ChannelError.inappropriateOperationForState
            }
        }
        throw ChannelError.eof
    }

    private func answer(_ head: HTTPRequestHead, isFromLoopback: Bool, disposition: inout ConnectionDisposition) async -> ServerResponse {
        let request: ServerRequest
        do {
            request = try ServerRequest(head: head, isFromLoopback: isFromLoopback, limits: limits)
        } catch {
            disposition = .close
            return error.response
        }
        do {
            return try await responder.respond(to: request)
        } catch {
            return .plainText(.badGateway, error.description)
        }
    }

    /// Writes the response (without body for `HEAD`, 204 and 304) and returns the body bytes sent.
    private func write(
        _ response: ServerResponse, toRequest head: HTTPRequestHead, disposition: ConnectionDisposition, date: String,
        _ outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
    ) async throws -> Int {
        let responseHead = response.http1Head(date: date, connection: disposition)
        guard head.method != .HEAD, response.allowsBody, response.body.readableBytes > 0 else {
            try await outbound.write(contentsOf: [.head(responseHead), .end(nil)])
            return 0
        }
        try await outbound.write(contentsOf: [.head(responseHead), .body(.byteBuffer(response.body)), .end(nil)])
        return response.body.readableBytes
    }

    /// 127.0.0.0/8, ::1 and IPv4-mapped loopback.
    static func isLoopback(_ address: SocketAddress) -> Bool {
        guard let ip = address.ipAddress else { return address.protocol == .unix }
        return ip.hasPrefix("127.") || ip == "::1" || ip.hasPrefix("::ffff:127.")
    }
}
