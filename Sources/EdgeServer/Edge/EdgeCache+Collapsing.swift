extension EdgeCache {
    /// Request collapsing, as nginx's `proxy_cache_lock`: the first request that must ask the
    /// origin about `key` does (`exchange`), and requests for the same key that arrive meanwhile
    /// wait for it, then answer from what it stored (a `HIT` with `detail=collapsed` in
    /// `Cache-Status`), or, when it stored nothing their request may use (an uncacheable or
    /// already stale response, another variant), ask the origin themselves.
    ///
    /// The exchange runs in a task registered in one critical section with the check for a
    /// running one, and removes itself once its response is stored, so a request that waited
    /// always finds it.
    func collapse(
        _ request: ServerRequest, key: CacheKey, collapsing: Bool, _ exchange: @escaping @Sendable () async -> ServerResponse
    ) async -> ServerResponse {
        guard collapsing else { return await exchange() }
        let (exchanging, isFirst) = state.withLockedValue { state in
            if let running = state.exchanges[key] {
                state.exchanges[key]?.waiting += 1
                return (running.task, false)
            }
            let task = Task {
                let response = await exchange()
                self.state.withLockedValue { _ = $0.exchanges.removeValue(forKey: key) }
                return response
            }
            state.exchanges[key] = State.Exchange(task: task)
            return (task, true)
        }
        let response = await exchanging.value
        guard !isFirst else { return response }
        var collapsed = await respond(to: request, collapsing: false)
        if collapsed.headerFields[.xCache] == CacheOutcome.Label.hit.rawValue, let entry = collapsed.headerFields[.cacheStatus] {
            // Cache-Status's last entry is this cache's.
            collapsed.headerFields[.cacheStatus] = entry + "; detail=collapsed"
        }
        return collapsed
    }

    /// How many requests wait for another request's exchange with the origin about the target
    /// of `request` (request collapsing), for tests and diagnostics.
    public func requestsWaitingForOrigin(like request: ServerRequest) -> Int {
        state.withLockedValue { $0.exchanges[key(for: request)]?.waiting ?? 0 }
    }
}
