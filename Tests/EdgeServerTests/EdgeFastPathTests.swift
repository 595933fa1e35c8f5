import EdgeServer
import Foundation
import HTTPTypes
import Testing

/// `EdgeCache.respondImmediately`: a fresh stored response (`HIT`) and the purge endpoint are
/// answered at once, after the site-change check; anything that needs the origin (a miss, a stale
/// or `no-cache` response, another method) is declined without asking the origin.
@Suite struct EdgeFastPathTests {
    static let manifestPolicy = EdgeFreshnessTests.manifestPolicy

    @Test func aFreshStoredResponseIsAHitAsRespondGivesIt() async {
        let fixture = EdgeFixture(cacheControl: Self.manifestPolicy)
        #expect(await fixture.get().xCache == "MISS")
        fixture.clock.advance(1)
        let hit = fixture.immediately()
        #expect(hit?.xCache == "HIT")
        #expect(hit?.headerFields[.age] == "1")
        #expect(hit?.cacheStatus == "edge; hit; ttl=4")
        expectSameResponse(hit, await fixture.get())
        expectSameResponse(fixture.immediately(method: .head), await fixture.get(method: .head))
        #expect(await fixture.originRequests == 1)
    }

    /// The stored response keeps an upstream cache's `Cache-Status` entry in front of the edge's.
    @Test func aHitFollowsTheUpstreamCacheStatus() async {
        let fixture = EdgeFixture(cacheControl: "max-age=60")
        await fixture.origin.set(extraFields: [HTTPField.Name("Cache-Status")!: "origin-cache; hit", HTTPField.Name("X-Cache")!: "MISS"])
        _ = await fixture.get()
        let hit = fixture.immediately()
        #expect(hit?.cacheStatus == "origin-cache; hit, edge; hit; ttl=60")
        #expect(hit?.headerFields[values: HTTPField.Name("X-Cache")!] == ["HIT"])
        expectSameResponse(hit, await fixture.get())
    }

    /// A stale response (inside stale-while-revalidate or past it), `no-cache`, `must-revalidate`
    /// once stale: all wait for `respond`, and the fast path neither asks the origin nor starts a
    /// refresh.
    @Test(arguments: [
        (Self.manifestPolicy, 7.0, "STALE"), (Self.manifestPolicy, 11.0, "REVALIDATED"), ("max-age=60, no-cache", 0.0, "REVALIDATED"),
        ("max-age=1, must-revalidate", 2.0, "REVALIDATED"),
    ])
    func storedResponsesThatNeedTheOriginAreDeclined(cacheControl: String, after seconds: Double, label: String) async {
        let fixture = EdgeFixture(cacheControl: cacheControl)
        _ = await fixture.get()
        fixture.clock.advance(seconds)
        #expect(fixture.immediately() == nil)
        #expect(fixture.immediately(method: .head) == nil)
        await fixture.edge.waitForBackgroundRefreshes()
        #expect(await fixture.originRequests == 1)
        #expect(await fixture.get().xCache == label)
    }

    @Test func nothingStoredAndOtherMethodsAreDeclined() async {
        let fixture = EdgeFixture(cacheControl: "max-age=60")
        #expect(fixture.immediately() == nil)
        _ = await fixture.get()
        #expect(fixture.immediately(method: .post) == nil)
        #expect(fixture.immediately(method: .options) == nil)
        #expect(fixture.immediately(query: "v=2") == nil)
        #expect(await fixture.originRequests == 1)
    }

    @Test func anotherVariantIsDeclined() async {
        let fixture = EdgeFixture(cacheControl: "max-age=60")
        await fixture.origin.set(extraFields: [.vary: "Accept-Encoding"])
        _ = await fixture.get([.acceptEncoding: "gzip"])
        #expect(fixture.immediately([.acceptEncoding: "GZIP"])?.xCache == "HIT")
        #expect(fixture.immediately() == nil)
        #expect(await fixture.get().cacheStatus == "edge; fwd=vary-miss; stored")
    }

    @Test func thePurgeEndpointIsAnsweredAtOnce() async {
        let fixture = EdgeFixture(cacheControl: "max-age=600")
        _ = await fixture.get()
        _ = await fixture.get(path: "/bundles/a.bundle")
        let purged = fixture.immediately(path: EdgeCache.purgePath, query: "path=/manifest.json", method: .post)
        #expect(purged?.text == "200 OK: purged 1 entry\n")
        #expect(fixture.immediately() == nil)
        #expect(fixture.immediately(path: "/bundles/a.bundle")?.xCache == "HIT")
        let refusal = fixture.immediately(path: EdgeCache.purgePath)
        #expect(refusal?.status == .methodNotAllowed)
        expectSameResponse(refusal, await fixture.purge(method: .get))
    }

    /// The site-change check runs on the fast path too: a republished manifest purges everything.
    @Test func theFastPathNoticesARepublish() async throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.write("manifest.json", "{\"v\":1}")
        let fixture = EdgeFixture(cacheControl: "max-age=600", watchedFile: site.file("manifest.json"))
        _ = await fixture.get()
        #expect(fixture.immediately()?.xCache == "HIT")
        try site.write("manifest.json", "{\"v\":22}")
        fixture.clock.advance(1)
        #expect(fixture.immediately() == nil)
        #expect(await fixture.get().xCache == "MISS")
    }

    /// The chain `bundlepress serve` runs answers a client's revalidation and range request from
    /// a fresh stored response on the fast path, exactly as `respond` does.
    @Test func theServeChainAnswersFromTheStoreAsRespondDoes() async throws {
        let site = try OriginFastPathTests.makeSite()
        defer { site.remove() }
        let clock = ManualClock()
        let chain = ResponderChain.serve(origin: SiteOrigin(directory: site.path), edge: EdgeConfiguration(clock: clock.edgeClock))
        let bundle = OriginFastPathTests.bundle
        #expect(chain.responder.respondImmediately(to: request(.get, [.acceptEncoding: "gzip"], path: bundle)) == nil)
        let miss = try await chain.responder.respond(to: request(.get, [.acceptEncoding: "gzip"], path: bundle))
        #expect(miss.xCache == "MISS")
        let gzipTag = try #require(miss.headerFields[.eTag])
        clock.advance(3)
        let cases: [(HTTPFields, HTTPResponse.Status)] = [
            ([.acceptEncoding: "gzip"], .ok), ([.acceptEncoding: "gzip", .ifNoneMatch: gzipTag], .notModified),
            ([.acceptEncoding: "gzip", .range: "bytes=10-19"], .partialContent),
        ]
        for (fields, status) in cases {
            let fast = chain.responder.respondImmediately(to: request(.get, fields, path: bundle))
            #expect(fast?.status == status)
            #expect(fast?.xCache == "HIT")
            #expect(fast?.headerFields[.age] == "3")
            expectSameResponse(fast, try await chain.responder.respond(to: request(.get, fields, path: bundle)))
        }
        // A second later, the revalidation carries the next Age, still without the body's fields.
        clock.advance(1)
        let revalidation = chain.responder.respondImmediately(to: request(.get, cases[1].0, path: bundle))
        #expect(revalidation?.status == .notModified)
        #expect(revalidation?.headerFields[.age] == "4")
        #expect(revalidation?.headerFields[.contentEncoding] == nil)
        #expect(revalidation?.headerFields[.eTag] == gzipTag)
    }
}
