import SystemSupport
/// Watches one file of the site (the manifest) and reports when it changed, as a CDN notices a
/// deploy. It looks at most once per `interval` seconds of the edge's clock, so a busy server
/// does not `stat` on every request.
struct SiteChangeMonitor: Sendable {
    /// The watched file.
    let path: String
    /// The least time between two looks, in seconds.
    let interval: Double
    private var stamp: FileStamp?
    private var nextLook = -Double.infinity

    /// Starts watching `path`, taking its current state as the baseline (a missing file is a
    /// state too: its appearance counts as a change).
    init(watching path: String, interval: Double = 1) {
        self.path = path
        self.interval = interval
        stamp = FileStamp(path: path)
    }

    /// Whether the file changed since the last look; looks only when `interval` has passed since then.
    mutating func siteChanged(at now: Double) -> Bool {
        guard now >= nextLook else { return false }
        nextLook = now + interval
        let current = FileStamp(path: path)
        defer { stamp = current }
        return current != stamp
    }
}
