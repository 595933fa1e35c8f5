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

    /// Sends a request the closed origin holds, then `followers` requests for the same key once
    /// the first has reached the origin, opens the origin when all of them wait for the first,
    /// and returns the responses, the first's first.
    static func collapsedResponses(_ fixture: EdgeFixture, followers: Int) async -> [ServerResponse] {
        await fixture.origin.close()
        let first = Task { await fixture.get() }
        while await fixture.originRequests < 1 {
            await Task.yield()
        }
        return await withTaskGroup(of: ServerResponse.self) { group in
            for _ in 0..<followers {
                group.addTask { await fixture.get() }
            }
            while fixture.edge.requestsWaitingForOrigin(like: ServerRequest(method: .get, path: "/manifest.json")) < followers {
                await Task.yield()
            }
            await fixture.origin.open()
            return await [first.value] + group.reduce(into: []) { $0.append($1) }
        }
    }

    /// Request collapsing: misses for one key that arrive while the first is with the origin
    /// wait for it and are answered from what it stored, with one request to the origin.
    @Test func concurrentMissesForOneKeyMakeOneOriginRequest() async {
        let fixture = EdgeFixture(cacheControl: "max-age=600")
        let responses = await Self.collapsedResponses(fixture, followers: 2)
        #expect(responses.map(\.cacheStatus) == ["edge; fwd=uri-miss; stored"] + Array(repeating: "edge; hit; ttl=600; detail=collapsed", count: 2))
        #expect(await fixture.originRequests == 1)
        #expect(Self.purgedCount(await fixture.purge()) == 1)
    }

    /// Requests that waited for a response the edge could not store ask the origin themselves.
    @Test func requestsThatWaitedForAnUncacheableResponseAskTheOrigin() async {
        let fixture = EdgeFixture(cacheControl: "no-store")
        let responses = await Self.collapsedResponses(fixture, followers: 1)
        #expect(responses.map(\.xCache) == ["BYPASS", "BYPASS"])
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
