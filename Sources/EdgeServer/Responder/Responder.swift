/// One layer of the server: turns a request into a response.
///
/// Layers compose from the outside in: the transport calls the conditional/range layer, which
/// calls the simulated edge cache (unless `--no-edge`), which calls the origin that reads
/// `site/`. Each layer is a value that wraps the next one, so tests drive any layer directly.
public protocol Responder: Sendable {
    /// Answers one request.
    ///
    /// - Throws: ``OriginUnavailable`` when the layer cannot produce a response at all (the
    ///   edge answers 504 or serves stale, as a CDN does when its origin is down).
    func respond(to request: ServerRequest) async throws(OriginUnavailable) -> ServerResponse
}

/// The origin behind a layer could not be reached or failed, with the reason for the log.
public struct OriginUnavailable: Error, Sendable, CustomStringConvertible {
    /// Why the origin could not answer.
    public var reason: String

    /// Creates the error.
    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { "origin unavailable: \(reason)" }
}
