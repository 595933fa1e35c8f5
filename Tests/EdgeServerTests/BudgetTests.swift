import EdgeServer
import Foundation
import Testing

/// The connection budgets (issue 34's rows 7 and 8): one address, or pages listening for site
/// events, cannot take the places every other client needs.
@Suite(.timeLimit(.minutes(1)))
struct ConnectionBudgetTests {
    /// Opens `count` connections from `address` that send nothing, and runs `body` while they
    /// are open.
    static func holding(_ count: Int, to port: Int, from address: String, _ body: () async throws -> Void) async throws {
        guard count > 0 else { return try await body() }
        try await TestConnection.with(port: port, from: address) { _ in
            try await holding(count - 1, to: port, from: address, body)
        }
    }

    /// Row 8: a peer holding every place it may gets 503 for more, and another peer is served.
    @Test func onePeerCannotTakeEveryConnection() async throws {
        let site = try TestSite()
        try site.write("a.txt", "A")
        try await serving(site, limits: ConnectionLimits(maxConnections: 8, maxConnectionsPerPeer: 4)) { server in
            try await Self.holding(8, to: server.port, from: "127.0.0.1") {
                let refused = try await TestConnection.with(port: server.port, from: "127.0.0.1") { try await $0.response() }
                #expect(refused.status == 503 && refused["Retry-After"] == "1", "\(refused)")
                #expect(refused.text.contains("your address already has 4 open connections"))
                let other = try await TestConnection.with(port: server.port, from: "127.0.0.2") { try await $0.exchange("GET", "/a.txt") }
                #expect(other.status == 200)
            }
        }
    }

    /// Row 7: pages listening for site events count against their own cap, not the connection
    /// cap, get a comment line every keep-alive interval, and are closed after their lifetime.
    @Test func eventStreamsHaveACapOfTheirOwn() async throws {
        let site = try TestSite()
        try site.write("a.txt", "A")
        let events = SiteEventStream(run: "test", maxListeners: 3, keepAliveInterval: .milliseconds(200))
        let responder = LiveReloadResponder(wrapping: SiteOrigin(directory: site.path), events: events)
        defer { site.remove() }
        try await withServer(responder: responder, limits: ConnectionLimits(maxConnections: 3)) { server in
            try await Self.listening(3, port: server.port) {
                let refused = try await TestConnection.with(port: server.port) { try await $0.exchange("GET", "/_bundlepress/events") }
                #expect(refused.status == 503 && refused["Retry-After"] != nil, "\(refused)")
                let page = try await TestConnection.with(port: server.port) { try await $0.exchange("GET", "/a.txt") }
                #expect(page.status == 200)
            }
        }
    }

    /// Opens `count` event streams, checks each gets keep-alive comments, and runs `body` while
    /// they are open.
    static func listening(_ count: Int, port: Int, _ body: () async throws -> Void) async throws {
        guard count > 0 else { return try await body() }
        try await TestConnection.with(port: port) { connection in
            try await connection.request("GET", "/_bundlepress/events")
            #expect(await connection.untilReceived(": keep-alive\n\n").contains("retry: 1000"))
            try await listening(count - 1, port: port, body)
        }
    }

    /// Row 7: an event stream ends after its lifetime (the page reconnects).
    @Test func anEventStreamEndsAfterItsLifetime() async throws {
        let site = try TestSite()
        defer { site.remove() }
        let events = SiteEventStream(run: "test", lifetime: .seconds(1))
        try await withServer(responder: LiveReloadResponder(wrapping: SiteOrigin(directory: site.path), events: events)) { server in
            let started = ContinuousClock.now
            let received = try await TestConnection.with(port: server.port) { connection in
                try await connection.request("GET", "/_bundlepress/events")
                return await connection.untilClosed()
            }
            #expect(received.contains("retry: 1000"))
            #expect(ContinuousClock.now - started < .seconds(30))
        }
    }
}

/// The memory budget (issue 34's row 5): bodies in flight past it get 503 with `Retry-After`
/// at once instead of piling up, and every byte is given back.
@Suite(.timeLimit(.minutes(1)))
struct MemoryBudgetTests {
    static let kib = 1 << 10

    /// Waits (boundedly) until `condition` holds.
    static func eventually(_ condition: () async -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while !(await condition()), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
    }

    /// POSTs `bytes` to `/slow` on a connection of its own and returns the status.
    static func post(_ bytes: Int, port: Int) async throws -> TestResponse {
        try await TestConnection.with(port: port) { connection in
            try await connection.request("POST", "/slow", ["Content-Length: \(bytes)"])
            try await connection.send(String(repeating: "x", count: bytes))
            return try await connection.response()
        }
    }

    /// Request bodies held by requests still being answered fill the budget; the next is refused.
    @Test func requestBodiesPastTheBudgetGet503() async throws {
        let gate = Gate()
        let budget = MemoryBudget(limit: 1_000 * Self.kib)
        let limits = ConnectionLimits(maxRequestBodyBytes: 512 * Self.kib, requestTimeout: .seconds(30))
        try await withServer(responder: ShutdownAndLoadTests.GatedResponder(gate: gate), limits: limits, memoryBudget: budget) { server in
            let held = (0..<2).map { _ in Task { try await Self.post(400 * Self.kib, port: server.port) } }
            try await Self.eventually { await gate.arrivals == 2 }
            let refused = try await Self.post(400 * Self.kib, port: server.port)
            #expect(refused.status == 503 && refused["Retry-After"] == "1", "\(refused)")
            await gate.open()
            for request in held { #expect(try await request.value.status == 200) }
            try await Self.eventually { budget.inUse == 0 }
            #expect(budget.inUse == 0)
        }
    }

    /// An upstream body that arrives half and stalls holds its part of the budget; a second
    /// one that does not fit is a 503, not another body held until the read timeout.
    @Test func upstreamBodiesPastTheBudgetGet503() async throws {
        let half = String(repeating: "x", count: 500 * Self.kib)
        let budget = MemoryBudget(limit: 800 * Self.kib)
        try await RawUpstream.with({ _ in rawResponse(["Content-Length: \(600 * Self.kib)"], body: half) }, closing: false) { upstream in
            try await withProxy(to: upstream, memoryBudget: budget, readTimeout: .seconds(15)) { server in
                let stalled = Task { try await TestConnection.with(port: server.port) { try await $0.exchange("GET", "/one") } }
                try await Self.eventually { budget.inUse >= 500 * Self.kib }
                let refused = try await TestConnection.with(port: server.port) { try await $0.exchange("GET", "/two") }
                #expect(refused.status == 503 && refused["Retry-After"] == "1", "\(refused)")
                #expect(try await stalled.value.status == 504)
                try await Self.eventually { budget.inUse == 0 }
                #expect(budget.inUse == 0)
            }
        }
    }
}
