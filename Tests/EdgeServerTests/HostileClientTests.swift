import EdgeServer
import Foundation
import Testing

/// The transport against clients that send what HTTP/1.1 forbids or asks for: issue 34's rows
/// 9 and 10, on a static site, with timeouts that end every wait (a loaded machine runs the whole
/// suite at once: they are not short).
@Suite(.timeLimit(.minutes(1)))
struct HostileClientTests {
    static let limits = ConnectionLimits(requestTimeout: .seconds(20), idleTimeout: .seconds(60))

    static func withSiteConnection(_ body: (inout TestConnection) async throws -> Void) async throws {
        let site = try TestSite()
        try site.write("a.txt", "A")
        try await serving(site, limits: limits) { server in
            try await TestConnection.with(port: server.port, body)
        }
    }

    /// Row 9: an HTTP/1.0 request with `Transfer-Encoding` is answered, then the connection
    /// closes (RFC 9112 §6.1), although it asked for keep-alive.
    @Test func http10WithTransferEncodingClosesTheConnection() async throws {
        try await Self.withSiteConnection { connection in
            let started = ContinuousClock.now
            try await connection.send(
                "POST /a.txt HTTP/1.0\r\nHost: t\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
            let received = await connection.untilClosed()
            #expect(received.hasPrefix("HTTP/1.1 405 "), "\(received)")
            #expect(received.contains("Connection: close"), "\(received)")
            #expect(ContinuousClock.now - started < .seconds(40))
        }
    }

    /// Row 10: a `Host` that is not `host[:port]` is a 400.
    @Test(arguments: [Array("a b".utf8), [0xFF], Array("a/b".utf8), Array("[::1".utf8), Array("a:8x".utf8)])
    func anInvalidHostIs400(host: [UInt8]) async throws {
        try await Self.withSiteConnection { connection in
            try await connection.send(bytes: Array("GET /a.txt HTTP/1.1\r\nHost: ".utf8) + host + Array("\r\n\r\n".utf8))
            #expect(try await connection.response().status == 400)
        }
    }

    /// Row 10: valid hosts still pass.
    @Test(arguments: ["www.example.com", "127.0.0.1:8080", "[::1]:80", "", "xn--bcher-kva.example"])
    func aValidHostIsServed(host: String) async throws {
        try await Self.withSiteConnection { connection in
            try await connection.send("GET /a.txt HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            #expect(try await connection.response().status == 200)
        }
    }

    /// Row 10: a method the server does not know is 501 (RFC 9110 §9.1), not 400.
    @Test func anUnknownMethodIs501() async throws {
        try await Self.withSiteConnection { connection in
            let status = try await connection.exchange("FOO", "/a.txt").status
            #expect(status == 501)
        }
    }

    /// Row 10: `Expect: 100-continue` gets `100 Continue` before the body is sent, then the
    /// final answer.
    @Test func expectContinueIsAnswered() async throws {
        try await Self.withSiteConnection { connection in
            try await connection.send("POST /a.txt HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
            let interim = await connection.untilReceived("\r\n\r\n")
            #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
            try await connection.send("hello")
            #expect(try await connection.response().status == 405)
        }
    }
}
