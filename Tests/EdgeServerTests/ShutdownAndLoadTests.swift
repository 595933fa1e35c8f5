import EdgeServer
import HTTPTypes
import NIOCore
import NIOPosix
import SystemSupport
import Testing

/// Holds responses until the test opens it.
actor Gate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var watching: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private(set) var arrivals = 0

    /// Counts an arrival and waits until the gate is open.
    func pass() async {
        arrivals += 1
        let reached = watching.filter { $0.count <= arrivals }
        watching.removeAll { $0.count <= arrivals }
        reached.forEach { $0.continuation.resume() }
        guard !isOpen else { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Returns once `count` arrivals have been counted.
    func untilArrivals(_ count: Int) async {
        guard arrivals < count else { return }
        await withCheckedContinuation { watching.append((count, $0)) }
    }

    func open() {
        isOpen = true
        waiting.forEach { $0.resume() }
        waiting = []
    }
}

/// Waits until `count` tasks have arrived, then lets all of them go on.
actor Barrier {
    private let count: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) {
        self.count = count
    }

    func arrive() async {
        guard waiting.count + 1 < count else {
            waiting.forEach { $0.resume() }
            waiting = []
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}

@Suite(.timeLimit(.minutes(5)))
struct ShutdownAndLoadTests {
    /// Answers `/slow` only once the gate opens; anything else at once.
    struct GatedResponder: Responder {
        let gate: Gate

        func respond(to request: ServerRequest) async -> ServerResponse {
            if request.path == "/slow" { await gate.pass() }
            return ServerResponse(status: .ok, headerFields: [.contentType: "text/plain"], body: ByteBuffer(string: "done \(request.path)"))
        }
    }

    @Test func shutdownFinishesTheRequestInFlightAndClosesIdleConnections() async throws {
        let gate = Gate()
        let server = try await EdgeServer.start(
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0, accessLog: nil), responder: GatedResponder(gate: gate))
        let running = Task { await server.run() }
        let port = server.port
        let inFlight = Task {
            try await TestConnection.with(port: port) { connection in
                let response = try await connection.exchange("GET", "/slow")
                return (response, await connection.untilClosed())
            }
        }
        try await TestConnection.with(port: port) { idle in
            #expect(try await idle.exchange("GET", "/fast").text == "done /fast")
            while await gate.arrivals == 0 { try await Task.sleep(for: .milliseconds(10)) }
            server.shutdown()
            // The idle keep-alive connection is closed without waiting for the slow request.
            #expect(await idle.untilClosed().isEmpty)
        }
        // No new connections once shutting down.
        await #expect(throws: (any Error).self) {
            try await TestConnection.with(port: port) { try await $0.exchange("GET", "/fast") }
        }
        await gate.open()
        let (response, rest) = try await inFlight.value
        #expect(response.status == 200)
        #expect(response.text == "done /slow")
        #expect(response["Connection"] == "close")
        #expect(rest.isEmpty)
        await running.value
    }

    @Test func aThousandConcurrentKeepAliveConnections() async throws {
        raiseOpenFileLimit(to: 4_096)
        let site = try TestSite()
        defer { site.remove() }
        try site.write("bundles/manifest.json", "{\"schema_version\":1}")
        try site.writeWithSidecar("bundles/a.0123456789abcdef.bundle", sampleBytes(20_000))
        let connections = 1_000
        // One peer (127.0.0.1) opens them all: let it.
        var limits = testLimits
        limits.maxConnectionsPerPeer = connections
        try await withServer(site: site, limits: limits) { server in
            let barrier = Barrier(count: connections)
            let served = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<connections {
                    group.addTask {
                        try await TestConnection.with(port: server.port) { connection in
                            let first = try await connection.exchange("GET", "/bundles/manifest.json")
                            // Every connection is open at once before any sends its second request.
                            await barrier.arrive()
                            let second = try await connection.exchange("GET", "/bundles/a.0123456789abcdef.bundle", ["Accept-Encoding: gzip"])
                            return first.status == 200 && second.status == 200 && second["Content-Encoding"] == "gzip" ? 1 : 0
                        }
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(served == connections)
            #expect(server.log.recorded.count == 2 * connections)
        }
    }

    /// Raises the soft limit on open files (the test process holds both ends of every connection).
    private func raiseOpenFileLimit(to wanted: rlim_t) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < wanted else { return }
        limit.rlim_cur = min(wanted, limit.rlim_max)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
