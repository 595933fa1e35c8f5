/// What one client may use: sizes, times and the number of connections. Each limit answers
/// with a status a client can understand (or a closed idle connection) instead of letting one
/// client hold the server.
public struct ConnectionLimits: Sendable {
    /// Longest request target (path and query) in bytes; longer gets 414.
    public var maxRequestTargetBytes: Int
    /// Largest request head (request line plus header fields) in bytes; larger gets 431. A
    /// target too long for this limit also gets 431, as the head is read before it is parsed.
    public var maxRequestHeadBytes: Int
    /// Largest request body in bytes (read whole, and forwarded to an upstream origin; the site
    /// origin ignores it); larger gets 413 and the connection is closed.
    public var maxRequestBodyBytes: Int
    /// How long a client has to send a complete request once it has started one (or once it
    /// connected). Past it the connection is closed: slow-header ("slowloris") clients cannot
    /// hold connections open.
    public var requestTimeout: Duration
    /// How long a keep-alive connection may wait for its next request.
    public var idleTimeout: Duration
    /// Most connections open at once; more get 503 with `Retry-After` and are closed.
    public var maxConnections: Int
    /// Most connections open at once from one IP address, so that one peer cannot take every
    /// place of ``maxConnections``; more get 503 with `Retry-After` and are closed. An event
    /// stream gives its place back once it starts (streams have their own cap).
    public var maxConnectionsPerPeer: Int

    /// Creates limits; the defaults suit a local server that many browser tabs and test
    /// scripts use at once.
    public init(
        maxRequestTargetBytes: Int = 8 << 10,
        maxRequestHeadBytes: Int = 32 << 10,
        maxRequestBodyBytes: Int = 64 << 10,
        requestTimeout: Duration = .seconds(10),
        idleTimeout: Duration = .seconds(60),
        maxConnections: Int = 4_096,
        maxConnectionsPerPeer: Int = 256
    ) {
        self.maxRequestTargetBytes = maxRequestTargetBytes
        self.maxRequestHeadBytes = maxRequestHeadBytes
        self.maxRequestBodyBytes = maxRequestBodyBytes
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.maxConnectionsPerPeer = maxConnectionsPerPeer
    }
}
