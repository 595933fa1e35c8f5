import EdgeServer
import NIOCore
import NIOConcurrencyHelpers
import NIOPosix
import SitePolicy

/// The access log lines a test server wrote.
final class LogRecorder: Sendable {
    private let lines = NIOLockedValueBox<[String]>([])

    var accessLog: AccessLog {
        AccessLog { [lines] line in lines.withLockedValue { $0.append(line) } }
    }

    var recorded: [String] { lines.withLockedValue { $0 } }
}

/// A running server under test.
struct RunningServer: Sendable {
    let port: Int
    let log: LogRecorder
    let server: EdgeServer
}

/// Limits for tests that do not test timeouts: the product's, but with request and idle timeouts
/// a starved CI machine cannot reach between a test's steps.
let testLimits = ConnectionLimits(requestTimeout: .seconds(120), idleTimeout: .seconds(120))

/// Runs `body` against a server on 127.0.0.1 (a free port) answering with `responder` on the
/// event loops of `group`, then shuts the server down gracefully and waits until it has stopped.
func withServer(
    responder: some Responder, limits: ConnectionLimits = testLimits, memoryBudget: MemoryBudget? = nil,
    group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, _ body: (RunningServer) async throws -> Void
) async throws {
    let log = LogRecorder()
    let server = try await EdgeServer.start(
        configuration: ServerConfiguration(host: "127.0.0.1", port: 0, limits: limits, accessLog: log.accessLog, memoryBudget: memoryBudget),
        responder: responder, group: group)
    let running = Task { await server.run() }
    defer { running.cancel() }
    do {
        try await body(RunningServer(port: server.port, log: log, server: server))
    } catch {
        server.shutdown()
        await running.value
        throw error
    }
    server.shutdown()
    await running.value
}

/// Runs `body` against a server for the site `site` (see ``withServer(responder:limits:_:)``).
func withServer(
    site: TestSite, policy: HeaderPolicy = .default, limits: ConnectionLimits = testLimits, _ body: (RunningServer) async throws -> Void
) async throws {
    try await withServer(responder: SiteOrigin(directory: site.path, policy: policy), limits: limits, body)
}

/// Serves `site` (see ``withServer(site:policy:limits:_:)``) and removes it afterwards.
func serving(
    _ site: TestSite, policy: HeaderPolicy = .default, limits: ConnectionLimits = testLimits, _ body: (RunningServer) async throws -> Void
) async throws {
    defer { site.remove() }
    try await withServer(site: site, policy: policy, limits: limits, body)
}

/// Serves `site`, runs `body` on one connection to it, and removes the site afterwards.
func withConnection(serving site: TestSite, policy: HeaderPolicy = .default, _ body: (inout TestConnection) async throws -> Void) async throws {
    try await serving(site, policy: policy) { server in
        try await TestConnection.with(port: server.port, body)
    }
}
