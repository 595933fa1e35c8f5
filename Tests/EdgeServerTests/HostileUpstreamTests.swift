import EdgeServer
import Foundation
import NIOConcurrencyHelpers
import Testing

/// `serve --upstream` against clients and upstreams that try to make the edge hand one client
/// what another chose, or pass on what HTTP forbids (issue 34's table, rows 3, 4 and 6), over
/// real sockets.
@Suite(.timeLimit(.minutes(2)))
struct HostileUpstreamTests {
    /// An upstream that builds its page from `X-Forwarded-Host`, cacheable for a minute, with
    /// `extra` fields.
    static func reflectingHost(_ extra: [String] = []) -> RawUpstream.Script {
        { head in
            let body = "page for \(forwardedHost(in: head) ?? "none")"
            return rawResponse(["Cache-Control: max-age=60", "Content-Length: \(body.utf8.count)"] + extra, body: body)
        }
    }

    /// Row 3: a client that sends another `Host` stores its page under that host only; the
    /// site's own clients never receive it.
    @Test(arguments: [[], ["Vary: X-Forwarded-Host"]])
    func aClientsHostSelectsOnlyItsOwnEntries(vary: [String]) async throws {
        try await RawUpstream.with(Self.reflectingHost(vary)) { upstream in
            try await withProxy(to: upstream) { server in
                let evil = try await TestConnection.with(port: server.port) {
                    try await $0.send("GET /page HTTP/1.1\r\nHost: evil.example\r\nX-Forwarded-Host: www.legit.example\r\n\r\n")
                    return try await $0.response()
                }
                #expect(evil.text == "page for evil.example")
                for host in ["www.legit.example", "WWW.Legit.Example:80"] {
                    let legit = try await TestConnection.with(port: server.port) {
                        try await $0.send("GET /page HTTP/1.1\r\nHost: \(host)\r\n\r\n")
                        return try await $0.response()
                    }
                    #expect(legit.text == "page for www.legit.example", "\(host)")
                }
                #expect(upstream.requests.count == 2)
            }
        }
    }

    /// Row 3 with `--upstream-host`: every client's request goes upstream for the operator's
    /// host, so they all share one entry, whatever `Host` or `X-Forwarded-Host` they send.
    @Test func aPinnedUpstreamHostIsTheOnlyOneForwarded() async throws {
        try await RawUpstream.with(Self.reflectingHost()) { upstream in
            try await withProxy(to: upstream, forwardedHost: "www.legit.example") { server in
                for host in ["evil.example", "www.legit.example"] {
                    let response = try await TestConnection.with(port: server.port) {
                        try await $0.send("GET /page HTTP/1.1\r\nHost: \(host)\r\nX-Forwarded-Host: evil.example\r\n\r\n")
                        return try await $0.response()
                    }
                    #expect(response.text == "page for www.legit.example")
                }
                #expect(upstream.requests.count == 1)
            }
        }
    }

    /// Row 4: a cacheable response that sets a cookie reaches its client and is not stored, so
    /// the next client neither gets the cookie nor the page made for the first; stored only
    /// when the operator says so.
    @Test(arguments: [false, true])
    func responsesSettingCookiesAreStoredOnlyWhenAllowed(storesSetCookie: Bool) async throws {
        let session = Counter()
        try await RawUpstream.with({ _ in
            let body = "hello"
            return rawResponse(["Cache-Control: max-age=60", "Set-Cookie: session=\(session.next())", "Content-Length: 5"], body: body)
        }) { upstream in
            try await withProxy(to: upstream, storesSetCookie: storesSetCookie) { server in
                let first = try await TestConnection.with(port: server.port) { try await $0.exchange("GET", "/account") }
                #expect(first["Set-Cookie"] == "session=1")
                let second = try await TestConnection.with(port: server.port) { try await $0.exchange("GET", "/account") }
                #expect(second["Set-Cookie"] == (storesSetCookie ? "session=1" : "session=2"))
                #expect(second["X-Cache"] == (storesSetCookie ? "HIT" : "MISS"))
                #expect(second["Cache-Status"]?.contains("detail=set-cookie") == !storesSetCookie)
            }
        }
    }

    /// Row 6: an upstream's `101 Switching Protocols` to a request that asked for no upgrade is
    /// a 502, not a response the client waits on.
    @Test func anInterimStatusAsTheAnswerIs502() async throws {
        try await RawUpstream.with({ _ in "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: upgrade\r\n\r\nhello" }) { upstream in
            try await withProxy(to: upstream) { server in
                let response = try await TestConnection.with(port: server.port) { try await $0.exchange("GET", "/socket") }
                #expect(response.status == 502)
            }
        }
    }

    /// Row 6: a 204 goes on without the body and the `Content-Length` the upstream sent (RFC
    /// 9110 §8.6), and the connection stays usable.
    @Test func a204NeverCarriesABodyOrALength() async throws {
        try await RawUpstream.with({ _ in "HTTP/1.1 204 No Content\r\nConnection: close\r\nContent-Length: 11\r\n\r\nhello world" }) { upstream in
            try await withProxy(to: upstream) { server in
                try await TestConnection.with(port: server.port) { connection in
                    try await connection.request("GET", "/empty")
                    let head = await connection.untilReceived("\r\n\r\n")
                    #expect(head.hasPrefix("HTTP/1.1 204 ") && !head.lowercased().contains("content-length"), "\(head)")
                    #expect(try await connection.exchange("GET", "/empty").status == 204)
                }
            }
        }
    }
}

/// Hands out 1, 2, 3… across threads.
final class Counter: Sendable {
    private let value = NIOLockedValueBox(0)

    func next() -> Int {
        value.withLockedValue {
            $0 += 1
            return $0
        }
    }
}
