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

    /// Creates a configuration.
    public init(
        maxStoredBytes: Int = EdgeConfiguration.defaultMaxStoredBytes,
        clock: EdgeClock = .system,
        watchedFile: String? = nil
    ) {
        self.maxStoredBytes = maxStoredBytes
        self.clock = clock
        self.watchedFile = watchedFile
    }
}
