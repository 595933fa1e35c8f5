import NIOCore
import NIOPosix

/// A raw client connection to the server under test: the test decides every byte it sends
/// (malformed requests, pipelining, slow headers) and reads responses as they arrive.
struct TestConnection {
    private var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private var received = ByteBuffer()

    /// Connects to 127.0.0.1:`port` (from the loopback address `from`, another peer to the
    /// server), runs `body`, then closes the connection.
    static func with<Result: Sendable>(
        port: Int, from: String = "127.0.0.1", _ body: (inout TestConnection) async throws -> Result
    ) async throws -> Result {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(to: try SocketAddress(ipAddress: from, port: 0))
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var connection = TestConnection(inbound: inbound.makeAsyncIterator(), outbound: outbound)
            return try await body(&connection)
        }
    }

    /// Sends text as it is (write `\r\n` explicitly).
    mutating func send(_ text: String) async throws {
        try await outbound.write(ByteBuffer(string: text))
    }

    /// Sends bytes as they are, UTF-8 or not.
    mutating func send(bytes: [UInt8]) async throws {
        try await outbound.write(ByteBuffer(bytes: bytes))
    }

    /// Sends `GET path` (or another method) with a Host header and `headers`, as HTTP/1.1.
    mutating func request(_ method: String = "GET", _ path: String, _ headers: [String] = []) async throws {
        try await send("\(method) \(path) HTTP/1.1\r\nHost: test\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n")
    }

    /// Reads the next response; `bodyless` for responses to HEAD.
    mutating func response(bodyless: Bool = false) async throws -> TestResponse {
        while true {
            if let response = try TestResponse.parse(&received, bodyless: bodyless) { return response }
            guard let more = try await inbound.next() else { throw ConnectionClosed(unread: String(buffer: received)) }
            received.writeImmutableBuffer(more)
        }
    }

    /// Sends one request and reads its response.
    mutating func exchange(_ method: String = "GET", _ path: String, _ headers: [String] = []) async throws -> TestResponse {
        try await request(method, path, headers)
        return try await response(bodyless: method == "HEAD")
    }

    /// Reads until what arrived (and was not returned yet) holds `text`, or the server closes,
    /// and returns it all: for a response that does not end, such as an event stream.
    mutating func untilReceived(_ text: String) async -> String {
        while !String(buffer: received).contains(text) {
            guard let more = try? await inbound.next() else { break }
            received.writeImmutableBuffer(more)
        }
        defer { received.clear() }
        return String(buffer: received)
    }

    /// Waits until the server closes the connection and returns what it sent before that (and
    /// not read yet). A reset counts as a close.
    mutating func untilClosed() async -> String {
        do {
            while let more = try await inbound.next() { received.writeImmutableBuffer(more) }
        } catch {
            // ECONNRESET and the like: closed all the same.
        }
        return String(buffer: received)
    }
}

/// The server closed the connection before a complete response.
struct ConnectionClosed: Error {
    var unread: String
}
