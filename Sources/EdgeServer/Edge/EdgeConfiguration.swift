/// How the simulated edge cache behaves, built once by the `serve` command.
public struct EdgeConfiguration: Sendable {
    /// The default bound on stored bytes: 256 MiB, room for every bundle of a large site while a
    /// runaway set of query-string variants cannot exhaust memory.
    public static let defaultMaxStoredBytes = 256 * 1024 * 1024

    /// The most bytes (bodies plus header fields) the cache holds; past it, the least recently
    /// used responses are evicted. A response larger than this is served but not stored.
    public var maxStoredBytes: Int
    /// The clock for freshness, `Age` and the site-change check.
    public var clock: EdgeClock
    /// A file whose change means "the site was republished", normally `site/bundles/manifest.json`.
    /// When its inode, size or modification time changes, the edge purges everything, as a CDN
    /// deploy does. `nil` disables the check.
    public var watchedFile: String?
    /// Whether the request's `Host` (normalised) is part of the cache key: in front of an origin
    /// that may answer each host differently (an upstream told the client's host in
    /// `X-Forwarded-Host`), so that no client can store, under its own `Host`, a response that
    /// other hosts' clients receive. The site origin answers every host alike.
    public var cacheKeyIncludesHost: Bool
    /// The server's budget for bodies in memory, which stored responses count against (they are
    /// evicted to make room for bodies in flight); nil for none but ``maxStoredBytes``.
    public var memoryBudget: MemoryBudget?
    /// Whether responses with `Set-Cookie` are stored (and so the cookie handed to every client
    /// the stored response serves). Off, they are passed on but not stored, as nginx and Varnish do.
    public var storesSetCookie: Bool

    /// Creates a configuration.
    public init(
        maxStoredBytes: Int = EdgeConfiguration.defaultMaxStoredBytes,
        clock: EdgeClock = .system,
        watchedFile: String? = nil,
        cacheKeyIncludesHost: Bool = false,
        storesSetCookie: Bool = false,
        memoryBudget: MemoryBudget? = nil
    ) {
        self.maxStoredBytes = maxStoredBytes
        self.clock = clock
        self.watchedFile = watchedFile
        self.cacheKeyIncludesHost = cacheKeyIncludesHost
        self.storesSetCookie = storesSetCookie
        self.memoryBudget = memoryBudget
    }

    /// The configuration of the edge in front of the upstream `upstream` describes: the cache
    /// keys on the client's `Host` unless the upstream is told one host
    /// (``UpstreamConfiguration/forwardedHost``), which every client then shares.
    /// The edge shares the upstream's ``UpstreamConfiguration/memoryBudget``.
    public init(inFrontOf upstream: UpstreamConfiguration, storesSetCookie: Bool = false, clock: EdgeClock = .system) {
        self.init(
            clock: clock, cacheKeyIncludesHost: upstream.forwardedHost == nil, storesSetCookie: storesSetCookie,
            memoryBudget: upstream.memoryBudget)
    }
}
