import EdgeServer
import HTTPTypes
import Testing

/// The edge as a shared cache in front of a real upstream (see ``ProxyFixture``), counting the
/// requests that reach it: collapsing, `Vary`, invalidation, 304 freshening, stale-if-error,
/// `CDN-Cache-Control`, `HEAD`.
@Suite struct UpstreamCachingTests {
    @Test func storesAndReusesWithAgeAndCacheStatus() async throws {
        try await ProxyFixture.with(cacheControl: "max-age=60") { proxy in
            let miss = try await proxy.exchange()
            #expect(miss["Cache-Status"] == "edge; fwd=uri-miss; stored")
            proxy.clock.advance(10)
            let hit = try await proxy.exchange()
            #expect(hit["Cache-Status"] == "edge; hit; ttl=50")
            #expect(hit["Age"] == "10")
            #expect(hit.text == "v1 /a")
            #expect(try await proxy.exchange("HEAD", "/a")["X-Cache"] == "HIT")
            #expect(await proxy.upstreamRequests == 1)
        }
    }

    /// Concurrent misses for one URL make one upstream request (as nginx's `proxy_cache_lock`).
    @Test func concurrentMissesAreCollapsed() async throws {
        try await ProxyFixture.with(cacheControl: "max-age=60") { proxy in
            await proxy.origin.close()
            let responses = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<5 {
                    group.addTask { try await proxy.exchange("GET", "/popular") }
                }
                while await proxy.upstreamRequests < 1
                    || proxy.edge.requestsWaitingForOrigin(like: ServerRequest(method: .get, path: "/popular")) < 4
                {
                    try await Task.sleep(for: .milliseconds(5))
                }
                await proxy.origin.open()
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(await proxy.upstreamRequests == 1)
            #expect(responses.allSatisfy { $0.status == 200 && $0.text == "v1 /popular" })
            #expect(responses.filter { $0["Cache-Status"] == "edge; hit; ttl=60; detail=collapsed" }.count == 4)
        }
    }

    @Test func varyKeepsOneResponsePerVariant() async throws {
        try await ProxyFixture.with(cacheControl: "max-age=60") { proxy in
            await proxy.origin.set(extraFields: [.vary: "Accept-Language"])
            #expect(try await proxy.exchange("GET", "/a", ["Accept-Language: en"])["X-Cache"] == "MISS")
            #expect(try await proxy.exchange("GET", "/a", ["Accept-Language: en"])["X-Cache"] == "HIT")
            #expect(try await proxy.exchange("GET", "/a", ["Accept-Language: fr"])["Cache-Status"] == "edge; fwd=vary-miss; stored")
            #expect(try await proxy.exchange("GET", "/a")["X-Cache"] == "MISS")
            #expect(await proxy.upstreamRequests == 3)
            await proxy.origin.set(extraFields: [.vary: "*"])
            _ = try await proxy.exchange("GET", "/star")
            #expect(try await proxy.exchange("GET", "/star")["X-Cache"] == "MISS")
        }
    }

    /// RFC 9111 §4.4: a successful unsafe request invalidates its URI and the same-host URIs its
    /// `Location` and `Content-Location` name.
    @Test func unsafeMethodsInvalidateTheURIAndTheLocationsTheyName() async throws {
        try await ProxyFixture.with(cacheControl: "max-age=60") { proxy in
            await proxy.origin.set(statusForOtherMethods: .ok)
            for path in ["/item", "/list", "/other"] {
                _ = try await proxy.exchange("GET", path)
            }
            await proxy.origin.set(extraFields: [.location: "http://test/list", .contentLocation: "other"])
            #expect(try await proxy.exchange("POST", "/item", body: "x").status == 200)
            await proxy.origin.set(extraFields: [:])
            for path in ["/item", "/list", "/other"] {
                #expect(try await proxy.exchange("GET", path)["X-Cache"] == "MISS", "\(path)")
            }
            #expect(await proxy.upstreamRequests == 7)
        }
    }

    /// A stale response is revalidated with the upstream's validator; the 304 freshens the stored
    /// fields (RFC 9111 §4.3.4) and the stored body is served.
    @Test func aNotModifiedFreshensTheStoredResponse() async throws {
        try await ProxyFixture.with(cacheControl: "max-age=10") { proxy in
            _ = try await proxy.exchange()
            proxy.clock.advance(20)
            await proxy.origin.set(cacheControl: "max-age=100")
            await proxy.origin.set(extraFields: [HTTPField.Name("X-Updated")!: "by-304"])
            let revalidated = try await proxy.exchange()
            #expect(revalidated.status == 200)
            #expect(revalidated.text == "v1 /a")
            #expect(revalidated["X-Cache"] == "REVALIDATED")
            #expect(revalidated["X-Updated"] == "by-304")
            #expect(revalidated["Cache-Control"] == "max-age=100")
            let conditional = try #require(await proxy.origin.requests.last)
            #expect(conditional.headerFields[.ifNoneMatch] == "\"v1\"")
            proxy.clock.advance(50)
            #expect(try await proxy.exchange()["X-Cache"] == "HIT")
            #expect(await proxy.upstreamRequests == 2)
        }
    }

    /// Inside `stale-if-error` the stored response stands in for a failing upstream; past it,
    /// `must-revalidate` lets the failure through.
    @Test func staleIfErrorServesTheStoredResponseWhenTheUpstreamFails() async throws {
        try await ProxyFixture.with(cacheControl: "max-age=1, must-revalidate, stale-if-error=60") { proxy in
            _ = try await proxy.exchange()
            proxy.clock.advance(10)
            await proxy.origin.set(cacheControl: "no-store", status: .serviceUnavailable)
            let stale = try await proxy.exchange()
            #expect(stale.status == 200)
            #expect(stale["Cache-Status"] == "edge; hit; fwd=stale; fwd-status=503; detail=origin-error")
            proxy.clock.advance(100)
            #expect(try await proxy.exchange().status == 503)
        }
    }

    /// RFC 9213: `CDN-Cache-Control` is the edge's, and `Cache-Control` is then not read.
    @Test func cdnCacheControlTakesPrecedence() async throws {
        try await ProxyFixture.with(cacheControl: "no-store") { proxy in
            await proxy.origin.set(extraFields: [.cdnCacheControlForTests: "max-age=30"])
            _ = try await proxy.exchange()
            #expect(try await proxy.exchange()["Cache-Status"] == "edge; hit; ttl=30")
            await proxy.origin.set(extraFields: [.cdnCacheControlForTests: "max-age=\"30\""])
            _ = try await proxy.exchange("GET", "/invalid")
            #expect(try await proxy.exchange("GET", "/invalid")["X-Cache"] == "BYPASS")
        }
    }

    /// A request with `Authorization` does not make the response shared unless it says so.
    @Test func responsesToAuthorizedRequestsAreNotStored() async throws {
        try await ProxyFixture.with(cacheControl: "max-age=60") { proxy in
            _ = try await proxy.exchange("GET", "/a", ["Authorization: Bearer t"])
            #expect(try await proxy.exchange("GET", "/a", ["Authorization: Bearer t"])["Cache-Status"] == "edge; fwd=bypass; detail=authorization")
            #expect(await proxy.upstreamRequests == 2)
        }
    }
}

extension HTTPField.Name {
    static let cdnCacheControlForTests = HTTPField.Name("CDN-Cache-Control")!
}
