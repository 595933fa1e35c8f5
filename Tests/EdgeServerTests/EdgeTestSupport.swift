import EdgeServer
import Foundation
import HTTPTypes
import NIOCore

/// A clock that moves only when a test says so.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds: Double

    /// Starts at 2027-01-15T08:00:00Z (any fixed time works).
    init(_ start: Double = 1_800_000_000) {
        seconds = start
    }

    var now: Double { lock.withLock { seconds } }

    func advance(_ by: Double) {
        lock.withLock { seconds += by }
    }

    var edgeClock: EdgeClock { EdgeClock { self.now } }
}

/// An origin whose answers a test changes between requests, and which records what it was asked.
/// It answers every path with `<version> <path>` and `ETag: "<version>"`, like a static origin
/// that the conditional layer the edge puts in front of it turns into 304s.
actor ScriptedOrigin: Responder {
    var cacheControl: String?
    var version = "v1"
    var status: HTTPResponse.Status = .ok
    /// The status for methods other than GET (an origin that accepts DELETE answers 204).
    var statusForOtherMethods: HTTPResponse.Status = .methodNotAllowed
    var isDown = false
    var extraFields: HTTPFields = [:]
    private(set) var requests: [ServerRequest] = []
    private var gate: [CheckedContinuation<Void, Never>]?

    init(cacheControl: String?) {
        self.cacheControl = cacheControl
    }

    func set(cacheControl: String? = nil, version: String? = nil, status: HTTPResponse.Status? = nil, isDown: Bool? = nil) {
        self.cacheControl = cacheControl ?? self.cacheControl
        self.version = version ?? self.version
        self.status = status ?? self.status
        self.isDown = isDown ?? self.isDown
    }

    func set(extraFields: HTTPFields) {
        self.extraFields = extraFields
    }

    func set(statusForOtherMethods: HTTPResponse.Status) {
        self.statusForOtherMethods = statusForOtherMethods
    }

    /// Makes requests wait until ``open()``.
    func close() {
        gate = gate ?? []
    }

    func open() {
        gate?.forEach { $0.resume() }
        gate = nil
    }

    func respond(to request: ServerRequest) async throws(OriginUnavailable) -> ServerResponse {
        requests.append(request)
        if gate != nil {
            await withCheckedContinuation { gate?.append($0) }
        }
        if isDown {
            throw OriginUnavailable(.unreachable, reason: "connection refused")
        }
        var fields = extraFields
        fields[.eTag] = "\"\(version)\""
        fields[.cacheControl] = cacheControl
        fields[.contentType] = "text/plain"
        let status = request.method == .get ? status : statusForOtherMethods
        return ServerResponse(status: status, headerFields: fields, body: ByteBuffer(string: "\(version) \(request.path)"))
    }
}

/// An edge over a scripted origin with a manual clock.
struct EdgeFixture {
    let clock = ManualClock()
    let origin: ScriptedOrigin
    let edge: EdgeCache

    init(cacheControl: String?, maxStoredBytes: Int = EdgeConfiguration.defaultMaxStoredBytes, watchedFile: String? = nil) {
        origin = ScriptedOrigin(cacheControl: cacheControl)
        edge = EdgeCache(
            origin: origin,
            configuration: EdgeConfiguration(maxStoredBytes: maxStoredBytes, clock: clock.edgeClock, watchedFile: watchedFile)
        )
    }

    func get(
        _ fields: HTTPFields = [:], path: String = "/manifest.json", query: String? = nil, method: HTTPRequest.Method = .get
    ) async -> ServerResponse {
        await edge.respond(to: request(method, fields, path: path, query: query))
    }

    /// The edge's fast path for the same request ``get(_:path:query:method:)`` sends.
    func immediately(
        _ fields: HTTPFields = [:], path: String = "/manifest.json", query: String? = nil, method: HTTPRequest.Method = .get
    ) -> ServerResponse? {
        edge.respondImmediately(to: request(method, fields, path: path, query: query))
    }

    /// Sends a request to the purge endpoint (`POST` from loopback unless told otherwise).
    func purge(query: String? = nil, method: HTTPRequest.Method = .post, loopback: Bool = true) async -> ServerResponse {
        await edge.respond(to: ServerRequest(method: method, path: EdgeCache.purgePath, query: query, isFromLoopback: loopback))
    }

    /// Stores `/manifest.json`, lets `change` alter the origin, lets `seconds` pass, and asks again.
    func requestAgain(after seconds: Double, changing change: (ScriptedOrigin) async -> Void = { _ in }) async -> ServerResponse {
        _ = await get()
        await change(origin)
        clock.advance(seconds)
        return await get()
    }

    /// How many requests reached the origin.
    var originRequests: Int {
        get async { await origin.requests.count }
    }
}

extension ServerResponse {
    var xCache: String? { headerFields[HTTPField.Name("X-Cache")!] }
    var cacheStatus: String? { headerFields[HTTPField.Name("Cache-Status")!] }
    var text: String { String(decoding: bytes, as: UTF8.self) }
}
