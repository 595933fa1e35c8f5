import EdgeServer
import HTTPTypes
import Testing

/// The orderings the edge's lock must keep now that requests run side by side on several
/// threads: one stored response per variant, no response stored across a purge, one background
/// refresh per stale response.
@Suite struct EdgeConcurrencyTests {
    /// The number in a purge answer (`200 OK: purged 3 entries`).
    static func purgedCount(_ response: ServerResponse) -> Int? {
        response.text.split(separator: " ").dropFirst(3).first.flatMap { Int($0) }
    }

    /// Request collapsing: misses for one key that arrive while the first is with the origin
    /// wait for it and are answered from what it stored, with one request to the origin.
    @Test func concurrentMissesForOneKeyMakeOneOriginRequest() async {
        let fixture = EdgeFixture(cacheControl: "max-age=600")
        await fixture.origin.close()
        async let first = fixture.get()
        while await fixture.originRequests < 1 {
            await Task.yield()
        }
        async let second = fixture.get()
        async let third = fixture.get()
        while fixture.edge.requestsWaitingForOrigin(like: ServerRequest(method: .get, path: "/manifest.json")) < 2 {
            await Task.yield()
        }
        await fixture.origin.open()
        #expect(await first.cacheStatus == "edge; fwd=uri-miss; stored")
        #expect(await [second.cacheStatus, third.cacheStatus] == ["edge; hit; ttl=600; detail=collapsed", "edge; hit; ttl=600; detail=collapsed"])
        #expect(await fixture.originRequests == 1)
        #expect(Self.purgedCount(await fixture.purge()) == 1)
    }

    /// Requests that waited for a response the edge could not store ask the origin themselves.
    @Test func requestsThatWaitedForAnUncacheableResponseAskTheOrigin() async {
        let fixture = EdgeFixture(cacheControl: "no-store")
        await fixture.origin.close()
        async let first = fixture.get()
        while await fixture.originRequests < 1 {
            await Task.yield()
        }
        async let second = fixture.get()
        while fixture.edge.requestsWaitingForOrigin(like: ServerRequest(method: .get, path: "/manifest.json")) < 1 {
            await Task.yield()
        }
        await fixture.origin.open()
        #expect(await [first.xCache, second.xCache] == ["BYPASS", "BYPASS"])
        #expect(await fixture.originRequests == 2)
    }

    /// A background refresh whose request went out before a purge stores nothing when it comes
    /// back, whether the origin answers 304 (the freshened response is gone) or a new 200.
    @Test(arguments: [false, true])
    func aRefreshThatFinishesAfterAPurgeStoresNothing(originChanged: Bool) async {
        let fixture = EdgeFixture(cacheControl: EdgeFreshnessTests.manifestPolicy)
        _ = await fixture.get()
        fixture.clock.advance(7)
        await fixture.origin.close()
        if originChanged {
            await fixture.origin.set(version: "v2")
        }
        #expect(await fixture.get().xCache == "STALE")
        while await fixture.originRequests < 2 {
            await Task.yield()
        }
        #expect(Self.purgedCount(await fixture.purge()) == 1)
        await fixture.origin.open()
        await fixture.edge.waitForBackgroundRefreshes()
        #expect(fixture.immediately() == nil)
        #expect(await fixture.get().xCache == "MISS")
    }

    /// Many stale requests at once start a single refresh.
    @Test func concurrentStaleRequestsStartOneRefresh() async {
        let fixture = EdgeFixture(cacheControl: EdgeFreshnessTests.manifestPolicy)
        _ = await fixture.get()
        fixture.clock.advance(7)
        await fixture.origin.close()
        let labels = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<16 {
                group.addTask { await fixture.get().xCache }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(labels == Array(repeating: "STALE", count: 16))
        await fixture.origin.open()
        await fixture.edge.waitForBackgroundRefreshes()
        #expect(await fixture.originRequests == 2)
        #expect(fixture.immediately()?.xCache == "HIT")
    }

    /// Hits on the fast path, misses and purges from many tasks at once leave a consistent store:
    /// never more than one response per path, and every path stored again after a final purge.
    @Test func hitsMissesAndPurgesFromManyTasksKeepTheStoreConsistent() async {
        let fixture = EdgeFixture(cacheControl: "max-age=600")
        let paths = (0..<8).map { "/bundles/b\($0).bundle" }
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for round in 0..<200 {
                        let path = paths[(worker * 3 + round) % paths.count]
                        if round % 40 == 39 {
                            _ = await fixture.purge(query: "path=\(path)")
                        } else if fixture.immediately(path: path) == nil {
                            _ = await fixture.get(path: path)
                        }
                    }
                }
            }
        }
        let stored = Self.purgedCount(await fixture.purge())
        #expect(stored.map { $0 <= paths.count } == true)
        for path in paths {
            #expect(fixture.immediately(path: path) == nil)
            #expect(await fixture.get(path: path).xCache == "MISS")
            #expect(fixture.immediately(path: path)?.xCache == "HIT")
        }
    }
}
