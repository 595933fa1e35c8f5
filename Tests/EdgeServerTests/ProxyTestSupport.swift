import EdgeServer
import NIOConcurrencyHelpers
import NIOCore

/// `bundlepress serve --upstream` as the tests run it: a real upstream on 127.0.0.1 (a
/// ``ScriptedOrigin`` served by the edge's own transport, with its conditional layer, so it
/// answers 304s and counts every request it receives), and in front of it the edge with an
/// ``UpstreamOrigin`` on another port, on a manual clock.
struct ProxyFixture: Sendable {
    let clock: ManualClock
    let origin: ScriptedOrigin
    /// The edge cache in front of the upstream.
    let edge: EdgeCache
    /// The port the edge listens on.
    let port: Int
    /// The upstream's port (the `Host` the upstream receives is `127.0.0.1:<upstreamPort>`).
    let upstreamPort: Int
    /// The failure lines ``UpstreamOrigin`` logged.
    let failures: FailureLog

    /// Runs `body` against an edge in front of a scripted upstream answering with `cacheControl`.
    static func with(
        cacheControl: String?, readTimeout: TimeAmount = .seconds(30), _ body: (ProxyFixture) async throws -> Void
    ) async throws {
        let origin = ScriptedOrigin(cacheControl: cacheControl)
        try await withServer(responder: ConditionalResponder(wrapping: origin)) { upstream in
            try await withEdge(upstreamPort: upstream.port, origin: origin, readTimeout: readTimeout, body)
        }
    }

    /// Runs `body` against an edge whose upstream port has nothing listening.
    static func withUnreachableUpstream(_ body: (ProxyFixture) async throws -> Void) async throws {
        var closedPort = 0
        try await withServer(responder: ScriptedOrigin(cacheControl: nil)) { closedPort = $0.port }
        try await withEdge(upstreamPort: closedPort, origin: ScriptedOrigin(cacheControl: nil), readTimeout: .seconds(30), body)
    }

    private static func withEdge(
        upstreamPort: Int, origin: ScriptedOrigin, readTimeout: TimeAmount, _ body: (ProxyFixture) async throws -> Void
    ) async throws {
        // At the upstream's own time, a little behind, so the apparent age of its `Date` is 0.
        let clock = ManualClock((EdgeClock.system.now() - 2).rounded(.down))
        let failures = FailureLog()
        let upstream = UpstreamOrigin(
            configuration: UpstreamConfiguration(
                address: try UpstreamAddress(parsing: "http://127.0.0.1:\(upstreamPort)"), readTimeout: readTimeout,
                failureLog: { line in failures.append(line) }))
        // The chain ResponderChain.serve builds, with the edge kept for the tests to look at.
        let edge = EdgeCache(origin: upstream, configuration: EdgeConfiguration(clock: clock.edgeClock))
        do {
            try await withServer(responder: ConditionalResponder(wrapping: edge)) { server in
                try await body(
                    ProxyFixture(clock: clock, origin: origin, edge: edge, port: server.port, upstreamPort: upstreamPort, failures: failures))
            }
        } catch {
            await upstream.shutdown()
            throw error
        }
        await upstream.shutdown()
    }

    /// Sends one request to the edge on a new connection and reads the response.
    func exchange(_ method: String = "GET", _ path: String = "/a", _ headers: [String] = [], body: String? = nil) async throws -> TestResponse {
        try await TestConnection.with(port: port) { connection in
            guard let body else { return try await connection.exchange(method, path, headers) }
            try await connection.request(method, path, headers + ["Content-Length: \(body.utf8.count)"])
            try await connection.send(body)
            return try await connection.response()
        }
    }

    /// How many requests reached the upstream.
    var upstreamRequests: Int {
        get async { await origin.requests.count }
    }
}

/// The lines a test's ``UpstreamOrigin`` logged.
final class FailureLog: Sendable {
    private let lines = NIOLockedValueBox<[String]>([])

    func append(_ line: String) {
        lines.withLockedValue { $0.append(line) }
    }

    var recorded: [String] { lines.withLockedValue { $0 } }
}
