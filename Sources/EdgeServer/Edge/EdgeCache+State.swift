extension EdgeCache {
    /// Everything the edge changes as it serves, kept behind the edge's one lock.
    ///
    /// Each decision that reads and writes this state (look up and mark used, check the
    /// generation and store, start a refresh unless one runs) happens in one critical section, so
    /// concurrent requests see the same orderings an actor gave. The lock is never held across a
    /// suspension: requests to the origin happen outside it.
    struct State: Sendable {
        /// The stored responses.
        var store: EdgeStore
        /// Counts purges: a response requested before a purge is not stored after it, so a fetch
        /// that raced a republish cannot put the old site back.
        var generation: UInt64 = 0
        /// The running background refreshes, by the id of the stale response they refresh.
        var refreshes: [UInt64: Task<Void, Never>] = [:]
        /// The running exchanges with the origin that requests for the same key wait for
        /// (request collapsing).
        var exchanges: [CacheKey: Exchange] = [:]
        /// Watches the manifest for a redeploy.
        var monitor: SiteChangeMonitor?

        /// One request's exchange with the origin, and how many requests wait for it.
        struct Exchange: Sendable {
            var task: Task<ServerResponse, Never>
            var waiting = 0
        }

        /// Removes the stored responses `target` names and returns how many there were.
        @discardableResult
        mutating func purge(_ target: PurgeTarget) -> Int {
            generation += 1
            switch target {
            case .all:
                return store.removeAll()
            case .path(let path):
                return store.removeAll(path: path)
            }
        }

        /// Purges everything when the watched file changed (a `stat` at most once per the
        /// monitor's interval).
        mutating func purgeIfSiteChanged(at now: Double) {
            if monitor?.siteChanged(at: now) == true {
                purge(.all)
            }
        }
    }
}
