import HTTPTypes

/// One layer of the server: turns a request into a response.
///
/// Layers compose from the outside in: the transport calls the conditional/range layer, which
/// calls the simulated edge cache (unless `--no-edge`), which calls the origin that reads
/// `site/`. Each layer is a value that wraps the next one, so tests drive any layer directly.
///
/// A layer answers in one of two ways. ``respondImmediately(to:)`` is the fast path: it answers
/// from what the layer holds in memory (a cached file, a fresh stored response) without
/// suspending, or returns nil. ``respond(to:)`` always answers, waiting for disk or the layer
/// behind when it must. The transport tries the fast path first on the connection's event loop,
/// and only starts a task for requests it declines.
public protocol Responder: Sendable {
    /// Answers one request without suspending, or returns nil when answering needs waiting
    /// (reading a file, asking the origin).
    ///
    /// A response returned here is the one ``respond(to:)`` would return for the same request at
    /// the same moment. It runs on an event loop thread, so it must not block beyond a `stat`.
    func respondImmediately(to request: ServerRequest) -> ServerResponse?

    /// Answers one request.
    ///
    /// - Throws: ``OriginUnavailable`` when the layer cannot produce a response at all (the
    ///   edge answers 504 or serves stale, as a CDN does when its origin is down).
    func respond(to request: ServerRequest) async throws(OriginUnavailable) -> ServerResponse
}

extension Responder {
    /// A layer without a fast path declines every request.
    public func respondImmediately(to request: ServerRequest) -> ServerResponse? {
        nil
    }
}

/// The origin behind a layer could not be reached or failed, with the reason for the log.
public struct OriginUnavailable: Error, Sendable, CustomStringConvertible {
    /// How the origin failed, which decides the gateway status the client gets.
    public enum Failure: Sendable {
        /// No usable answer: the connection was refused or reset, or the answer was not valid
        /// HTTP (`502 Bad Gateway`, as nginx answers).
        case unreachable
        /// No answer in time (`504 Gateway Timeout`).
        case timedOut
        /// The server has no memory left for the answer now (``MemoryBudget``): `503 Service
        /// Unavailable` with `Retry-After`.
        case overloaded
    }

    /// How the origin failed.
    public var failure: Failure
    /// Why the origin could not answer.
    public var reason: String

    /// Creates the error.
    public init(_ failure: Failure, reason: String) {
        self.failure = failure
        self.reason = reason
    }

    /// The status a client gets when nothing may be served instead: 502, 504 or 503.
    public var gatewayStatus: HTTPResponse.Status {
        switch failure {
        case .unreachable: .badGateway
        case .timedOut: .gatewayTimeout
        case .overloaded: .serviceUnavailable
        }
    }

    /// The fields that go with ``gatewayStatus``: `Retry-After` for a 503.
    public var gatewayFields: HTTPFields {
        failure == .overloaded ? [.retryAfter: "1"] : [:]
    }

    public var description: String { "origin unavailable: \(reason)" }
}
