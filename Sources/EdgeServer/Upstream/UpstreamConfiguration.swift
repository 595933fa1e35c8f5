import NIOCore

/// How ``UpstreamOrigin`` reaches its origin, built once by the `serve` command.
public struct UpstreamConfiguration: Sendable {
    /// Where requests go.
    public var address: UpstreamAddress
    /// How long opening a connection may take before the request fails with 504.
    public var connectTimeout: TimeAmount
    /// How long the upstream may stay silent while answering before the request fails with 504.
    public var readTimeout: TimeAmount
    /// The largest response body accepted; a larger one fails with 502.
    public var maxResponseBodyBytes: Int
    /// The most connections open to the upstream at once (more requests queue).
    public var maxConnections: Int
    /// The host every request is forwarded for (`X-Forwarded-Host`), whatever `Host` the
    /// client sent (`serve --upstream-host`); nil forwards the client's.
    public var forwardedHost: String?
    /// The server's budget for bodies in memory: response bodies count against it as they
    /// arrive, and one that does not fit is a 503 with `Retry-After`.
    public var memoryBudget: MemoryBudget?
    /// Told one line per failed request (`upstream GET http://… failed: … (answered 502)`).
    public var failureLog: (@Sendable (String) -> Void)?

    /// Creates a configuration.
    public init(
        address: UpstreamAddress,
        connectTimeout: TimeAmount = .seconds(5),
        readTimeout: TimeAmount = .seconds(30),
        maxResponseBodyBytes: Int = 64 << 20,
        maxConnections: Int = 64,
        forwardedHost: String? = nil,
        memoryBudget: MemoryBudget? = nil,
        failureLog: (@Sendable (String) -> Void)? = nil
    ) {
        self.address = address
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
        self.maxResponseBodyBytes = maxResponseBodyBytes
        self.maxConnections = maxConnections
        self.forwardedHost = forwardedHost
        self.memoryBudget = memoryBudget
        self.failureLog = failureLog
    }
}
