import EdgeServer
import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing

/// The HTTP/1.1 transport over real sockets: keep-alive, pipelining, limits, timeouts, the
/// connection cap, malformed requests, graceful shutdown, the access log.
@Suite(.timeLimit(.minutes(1)))
struct TransportTests {
    static func makeSite(_ label: String = #function) throws -> TestSite {
        let site = try TestSite(label)
        try site.write("a.txt", "A")
        try site.write("b.txt", "BB")
        try site.write("c.txt", "CCC")
        return site
    }

    @Test func keepAliveServesManyRequestsOnOneConnection() async throws {
        try await withConnection(serving: Self.makeSite()) { connection in
            for path in ["/a.txt", "/b.txt", "/c.txt", "/a.txt"] {
                let response = try await connection.exchange("GET", path)
                #expect(response.status == 200)
                #expect(response["Connection"] == nil)
            }
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await withConnection(serving: Self.makeSite()) { connection in
            try await connection.send(["/c.txt", "/a.txt", "/missing", "/b.txt"].map { "GET \($0) HTTP/1.1\r\nHost: t\r\n\r\n" }.joined()
                + "HEAD /c.txt HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try await connection.response().text == "CCC")
            #expect(try await connection.response().text == "A")
            #expect(try await connection.response().status == 404)
            #expect(try await connection.response().text == "BB")
            let head = try await connection.response(bodyless: true)
            #expect(head["Content-Length"] == "3")
        }
    }

    /// Answers `/fast…` on the fast path and everything else through `respond`, once the gate
    /// opens; the body says which path answered. It records every request the transport showed
    /// it, in order.
    struct TwoSpeedResponder: Responder {
        let gate: Gate
        let shown = NIOLockedValueBox<[String]>([])

        func respondImmediately(to request: ServerRequest) -> ServerResponse? {
            shown.withLockedValue { $0.append(request.path) }
            return request.path.hasPrefix("/fast") ? ServerResponse(status: .ok, body: ByteBuffer(string: "now \(request.path)")) : nil
        }

        func respond(to request: ServerRequest) async -> ServerResponse {
            await gate.pass()
            return ServerResponse(status: .ok, body: ByteBuffer(string: "later \(request.path)"))
        }
    }

    @Test func requestsBehindOneAnsweredLaterWaitForItInOrder() async throws {
        let responder = TwoSpeedResponder(gate: Gate())
        // One event loop: a task submitted to it runs after the read that brought the requests.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        // More requests wait behind /slow/0 than the transport buffers before it stops reading.
        let paths = ["/slow/0"] + (1...40).map { $0.isMultiple(of: 7) ? "/slow/\($0)" : "/fast/\($0)" }
        try await withServer(responder: responder, group: group) { server in
            try await TestConnection.with(port: server.port) { connection in
                try await connection.send(paths.map { "GET \($0) HTTP/1.1\r\nHost: t\r\n\r\n" }.joined())
                await responder.gate.untilArrivals(1)
                // /slow/0 was handed on while the event loop went through the requests read with
                // it; once this has run there, it has done all it would with them before /slow/0
                // is answered.
                try await group.next().submit {}.get()
                #expect(responder.shown.withLockedValue { $0 } == ["/slow/0"])
                #expect(await responder.gate.arrivals == 1)
                await responder.gate.open()
                for path in paths {
                    #expect(try await connection.response().text == (path.hasPrefix("/fast") ? "now " : "later ") + path)
                }
            }
        }
        #expect(responder.shown.withLockedValue { $0 } == paths)
        try await group.shutdownGracefully()
    }

    @Test func aMalformedRequestAfterPipelinedOnesIsAnsweredInItsTurn() async throws {
        try await withConnection(serving: Self.makeSite()) { connection in
            try await connection.send("GET /c.txt HTTP/1.1\r\nHost: t\r\n\r\nGET /a.txt HTTP/1.1\r\nHost: t\r\n\r\nGARBAGE\r\n\r\n")
            #expect(try await connection.response().text == "CCC")
            #expect(try await connection.response().text == "A")
            let rejected = try await connection.response()
            #expect(rejected.status == 501)
            #expect(rejected["Connection"] == "close")
            #expect(await connection.untilClosed().isEmpty)
        }
    }

    @Test func connectionCloseAndHTTP10() async throws {
        try await serving(Self.makeSite()) { server in
            try await TestConnection.with(port: server.port) { connection in
                let response = try await connection.exchange("GET", "/a.txt", ["Connection: close"])
                #expect(response["Connection"] == "close")
                #expect(await connection.untilClosed().isEmpty)
            }
            try await TestConnection.with(port: server.port) { connection in
                try await connection.send("GET /b.txt HTTP/1.0\r\n\r\n")
                let response = try await connection.response()
                #expect(response.text == "BB")
                #expect(response["Connection"] == "close")
                #expect(await connection.untilClosed().isEmpty)
            }
            try await TestConnection.with(port: server.port) { connection in
                try await connection.send("GET /b.txt HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                #expect(try await connection.response()["Connection"] == "keep-alive")
                try await connection.send("GET /c.txt HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                #expect(try await connection.response().text == "CCC")
            }
        }
    }

    @Test func otherHTTPVersionsGet505() async throws {
        try await serving(Self.makeSite()) { server in
            for version in ["HTTP/2.0", "HTTP/0.9", "HTTP/1.2"] {
                let answer = try await TestConnection.with(port: server.port) { connection in
                    try await connection.send("GET /a.txt \(version)\r\nHost: t\r\n\r\n")
                    return await connection.untilClosed()
                }
                #expect(answer.hasPrefix("HTTP/1.1 505 HTTP Version Not Supported\r\n"), "\(version): \(answer.prefix(40))")
            }
        }
    }

    @Test(arguments: [
        "GARBAGE\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: t\r\nNo colon here\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: t\r\nBad Name: x\r\n\r\n",
        "GET /a b HTTP/1.1\r\nHost: t\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "\u{0}\u{1}\u{2}\r\n\r\n",
    ])
    func malformedRequestsGet400AndTheServerKeepsServing(request: String) async throws {
        // The parser cannot tell a line that starts with no method it knows from a method it does
        // not know (`FOO`): both are 501.
        let status = request.hasPrefix("GET ") ? "400 Bad Request" : "501 Not Implemented"
        try await serving(Self.makeSite()) { server in
            let answer = try await TestConnection.with(port: server.port) { connection in
                try await connection.send(request)
                return await connection.untilClosed()
            }
            #expect(answer.hasPrefix("HTTP/1.1 \(status)\r\n"), "\(answer)")
            #expect(answer.contains("Connection: close\r\n"))
            let next = try await TestConnection.with(port: server.port) { try await $0.exchange("GET", "/a.txt") }
            #expect(next.text == "A")
            #expect(server.log.recorded.contains { $0.contains("\"-\" \(status.prefix(3)) ") })
        }
    }

    @Test func requestsTheTransportRefusesItself() async throws {
        try await serving(Self.makeSite()) { server in
            for (request, status) in [
                ("GET /a.txt HTTP/1.1\r\n\r\n", 400),
                ("GET /a.txt HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
                ("GET /../a.txt HTTP/1.1\r\nHost: a\r\n\r\n", 400),
                ("PURGE /a.txt HTTP/1.1\r\nHost: a\r\n\r\n", 405),
            ] {
                let response = try await TestConnection.with(port: server.port) { connection in
                    try await connection.send(request)
                    return try await connection.response()
                }
                #expect(response.status == status, "\(request)")
            }
        }
    }

    @Test func sizeLimits() async throws {
        let limits = ConnectionLimits(maxRequestTargetBytes: 1_000, maxRequestHeadBytes: 4_000, maxRequestBodyBytes: 100)
        try await serving(Self.makeSite(), limits: limits) { server in
            let longTarget = try await TestConnection.with(port: server.port) { connection in
                try await connection.exchange("GET", "/a.txt?" + String(repeating: "q", count: 2_000))
            }
            #expect(longTarget.status == 414)
            let bigHeader = try await TestConnection.with(port: server.port) { connection in
                try await connection.request("GET", "/a.txt", ["X-Big: " + String(repeating: "h", count: 5_000)])
                return await connection.untilClosed()
            }
            #expect(bigHeader.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"), "\(bigHeader.prefix(80))")
            let manyHeaders = try await TestConnection.with(port: server.port) { connection in
                try await connection.request("GET", "/a.txt", (0..<300).map { "X-H\($0): 01234567890123456789" })
                return await connection.untilClosed()
            }
            #expect(manyHeaders.hasPrefix("HTTP/1.1 431 "))
            let bigBody = try await TestConnection.with(port: server.port) { connection in
                try await connection.send("POST /a.txt HTTP/1.1\r\nHost: t\r\nContent-Length: 500\r\n\r\n" + String(repeating: "b", count: 500))
                let response = try await connection.response()
                _ = await connection.untilClosed()
                return response
            }
            #expect(bigBody.status == 413)
            #expect(bigBody["Connection"] == "close")
        }
    }

    @Test func slowHeadersAreCutOffAfterTheRequestTimeout() async throws {
        let limits = ConnectionLimits(requestTimeout: .milliseconds(400), idleTimeout: .seconds(30))
        try await serving(Self.makeSite(), limits: limits) { server in
            let started = ContinuousClock.now
            let trickled = try await TestConnection.with(port: server.port) { connection in
                // The request line, then one header byte every 100 ms, until the server closes
                // (writes then fail). On a loaded machine the timeout can pass before the first
                // write: that is a close too.
                let chunks = ["GET /a.txt HTTP/1.1\r\n"] + "Host: slowloris.example\r\nX-Padding: 0123456789\r\n".map(String.init)
                for chunk in chunks {
                    do {
                        try await connection.send(chunk)
                    } catch {
                        break
                    }
                    try await Task.sleep(for: .milliseconds(100))
                }
                return await connection.untilClosed()
            }
            let elapsed = ContinuousClock.now - started
            #expect(trickled.isEmpty)
            #expect(elapsed >= .milliseconds(300))
            #expect(elapsed < .seconds(20), "the slow client held the connection for \(elapsed)")
            // A connection that sends nothing at all is closed too.
            let silent = ContinuousClock.now
            _ = try await TestConnection.with(port: server.port) { await $0.untilClosed() }
            #expect(ContinuousClock.now - silent < .seconds(20))
            #expect(ContinuousClock.now - silent >= .milliseconds(300))
        }
    }

    @Test func idleKeepAliveConnectionsAreClosed() async throws {
        // The server's idle clock starts after it has written the response to /b.txt, so after
        // `sent`: the close comes 5 s after `sent` at the earliest (a lower bound however loaded
        // the machine), and well before the 60 s request timeout.
        let limits = ConnectionLimits(requestTimeout: .seconds(60), idleTimeout: .seconds(5))
        try await serving(Self.makeSite(), limits: limits) { server in
            try await TestConnection.with(port: server.port) { connection in
                let first = try await connection.exchange("GET", "/a.txt")
                // Activity within the idle timeout keeps the connection.
                let sent = ContinuousClock.now
                let second = try await connection.exchange("GET", "/b.txt")
                #expect(first.status == 200 && second.status == 200)
                #expect(await connection.untilClosed().isEmpty)
                #expect(ContinuousClock.now - sent >= .seconds(5))
                #expect(ContinuousClock.now - sent < .seconds(30))
            }
        }
    }

    @Test func connectionsOverTheCapGet503() async throws {
        try await serving(Self.makeSite(), limits: ConnectionLimits(maxConnections: 2)) { server in
            try await TestConnection.with(port: server.port) { first in
                #expect(try await first.exchange("GET", "/a.txt").status == 200)
                try await TestConnection.with(port: server.port) { second in
                    #expect(try await second.exchange("GET", "/b.txt").status == 200)
                    let refused = try await TestConnection.with(port: server.port) { third in
                        let response = try await third.response()
                        _ = await third.untilClosed()
                        return response
                    }
                    #expect(refused.status == 503)
                    #expect(refused["Retry-After"] == "1")
                    #expect(refused["Connection"] == "close")
                    // The admitted connections are unaffected.
                    #expect(try await first.exchange("GET", "/c.txt").status == 200)
                }
            }
            // Once connections close, new ones are admitted again (the server counts a close a
            // moment later; until then a new connection gets 503 and may be closed before the
            // request is even written, which throws).
            var status = 0
            let deadline = ContinuousClock.now + .seconds(20)
            while status != 200, ContinuousClock.now < deadline {
                status = (try? await TestConnection.with(port: server.port) { try await $0.exchange("GET", "/a.txt") }.status) ?? 0
                if status != 200 { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(status == 200)
        }
    }

    @Test func accessLogHasOneCommonLogFormatLinePerResponse() async throws {
        try await serving(Self.makeSite()) { server in
            try await TestConnection.with(port: server.port) { connection in
                _ = try await connection.exchange("GET", "/b.txt?x=1")
                _ = try await connection.exchange("HEAD", "/b.txt")
                _ = try await connection.exchange("GET", "/nope")
            }
            let lines = server.log.recorded
            #expect(lines.count == 3)
            let pattern = /^127\.0\.0\.1 - - \[\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000\] "(.*)" (\d{3}) (\S+)$/
            let parsed = lines.compactMap { try? pattern.wholeMatch(in: $0) }.map { "\($0.1) \($0.2) \($0.3)" }
            #expect(parsed == ["GET /b.txt?x=1 HTTP/1.1 200 2", "HEAD /b.txt HTTP/1.1 200 -", "GET /nope HTTP/1.1 404 49"])
        }
    }

    @Test func aLayerThatCannotReachItsOriginGets502() async throws {
        struct Unreachable: Responder {
            func respond(to request: ServerRequest) async throws(OriginUnavailable) -> ServerResponse {
                throw OriginUnavailable(.unreachable, reason: "connection refused")
            }
        }
        try await withServer(responder: Unreachable()) { server in
            let response = try await TestConnection.with(port: server.port) { try await $0.exchange("GET", "/") }
            #expect(response.status == 502)
            #expect(response.text.contains("connection refused"))
        }
    }
}
