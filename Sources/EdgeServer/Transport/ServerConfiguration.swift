/// Where the server listens and how it treats connections.
public struct ServerConfiguration: Sendable {
    /// The address to bind: an IP address or a host name (`127.0.0.1` keeps the server
    /// private to this machine).
    public var host: String
    /// The TCP port; 0 picks a free one (read it from ``EdgeServer/port``).
    public var port: Int
    /// Sizes, timeouts and the connection cap.
    public var limits: ConnectionLimits
    /// Where a Common Log Format line per response goes, or nil for none.
    public var accessLog: AccessLog?
    /// What request bodies are taken from while they are received and answered (shared with
    /// the upstream and the edge), or nil for no bound but each request's.
    public var memoryBudget: MemoryBudget?

    /// Creates a configuration.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, limits: ConnectionLimits = ConnectionLimits(), accessLog: AccessLog? = .standardError,
        memoryBudget: MemoryBudget? = nil
    ) {
        self.host = host
        self.port = port
        self.limits = limits
        self.accessLog = accessLog
        self.memoryBudget = memoryBudget
    }
}
