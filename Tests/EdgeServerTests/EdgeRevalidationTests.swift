import EdgeServer
import HTTPTypes
import NIOCore
import Testing

/// serving.md §3 items 27 and 31: stale-while-revalidate, revalidation with validators, expiry,
/// and what the edge does when the origin is down (RFC 9111 §4.2.4, §4.3; RFC 5861).
@Suite struct EdgeRevalidationTests {
    static let manifestPolicy = EdgeFreshnessTests.manifestPolicy

    /// Item 27, first part: inside the stale-while-revalidate window the stale response is served
    /// at once and refreshed in the background; the next request is a hit with a small age.
    @Test func staleWhileRevalidateServesStaleThenRefreshes() async throws {
        let fixture = EdgeFixture(cacheControl: Self.manifestPolicy)
        let stale = await fixture.requestAgain(after: 7)
        #expect(stale.xCache == "STALE")
        #expect(stale.cacheStatus == "edge; hit; fwd=stale")
        #expect(stale.headerFields[.age] == "7")
        #expect(stale.text == "v1 /manifest.json")
        await fixture.edge.waitForBackgroundRefreshes()
        let revalidation = try #require(await fixture.origin.requests.last)
        #expect(revalidation.headerFields[.ifNoneMatch] == "\"v1\"")
        let hit = await fixture.get()
        #expect(hit.xCache == "HIT")
        #expect(hit.headerFields[.age] == "0")
        #expect(await fixture.originRequests == 2)
    }

    /// A second request for the same stale response does not start a second refresh.
    @Test func oneBackgroundRefreshAtATime() async {
        let fixture = EdgeFixture(cacheControl: Self.manifestPolicy)
        _ = await fixture.get()
        fixture.clock.advance(7)
        await fixture.origin.close()
        #expect(await fixture.get().xCache == "STALE")
        #expect(await fixture.get().xCache == "STALE")
        while await fixture.originRequests < 2 {
            await Task.yield()
        }
        await fixture.origin.open()
        await fixture.edge.waitForBackgroundRefreshes()
        #expect(await fixture.originRequests == 2)
        #expect(await fixture.get().xCache == "HIT")
    }

    /// Item 27, second part: past the window an unchanged origin answers 304 and the response is
    /// served as REVALIDATED with its age reset.
    @Test func pastTheWindowAnUnchangedOriginRevalidates() async throws {
        let fixture = EdgeFixture(cacheControl: Self.manifestPolicy)
        let revalidated = await fixture.requestAgain(after: 11)
        #expect(revalidated.status == .ok)
        #expect(revalidated.xCache == "REVALIDATED")
        #expect(revalidated.cacheStatus == "edge; fwd=stale; fwd-status=304")
        #expect(revalidated.headerFields[.age] == "0")
        #expect(revalidated.text == "v1 /manifest.json")
        #expect(revalidated.headerFields[.contentType] == "text/plain")
        #expect(try #require(await fixture.origin.requests.last).headerFields[.ifNoneMatch] == "\"v1\"")
        fixture.clock.advance(1)
        let hit = await fixture.get()
        #expect(hit.xCache == "HIT")
        #expect(hit.headerFields[.age] == "1")
    }

    /// Item 27, third part: a changed origin answers 200 and the new response replaces the old one.
    @Test func pastTheWindowAChangedOriginReplacesTheResponse() async {
        let fixture = EdgeFixture(cacheControl: Self.manifestPolicy)
        let expired = await fixture.requestAgain(after: 11) { await $0.set(version: "v2") }
        #expect(expired.xCache == "EXPIRED")
        #expect(expired.cacheStatus == "edge; fwd=stale; fwd-status=200; stored")
        #expect(expired.headerFields[.eTag] == "\"v2\"")
        #expect(expired.text == "v2 /manifest.json")
        let hit = await fixture.get()
        #expect(hit.xCache == "HIT")
        #expect(hit.headerFields[.eTag] == "\"v2\"")
    }

    /// A changed origin that now forbids storing: the old response is dropped.
    @Test func aResponseThatBecameUncacheableIsDropped() async {
        let fixture = EdgeFixture(cacheControl: "max-age=1")
        #expect(await fixture.requestAgain(after: 2) { await $0.set(cacheControl: "no-store", version: "v2") }.xCache == "BYPASS")
        await fixture.origin.set(cacheControl: "max-age=1")
        #expect(await fixture.get().xCache == "MISS")
    }

    /// Item 31: with the origin down, must-revalidate, proxy-revalidate, s-maxage and no-cache
    /// forbid serving stale, so the edge answers 504; without them, or inside a stale-if-error
    /// window, the stale response beats an error (RFC 9111 §4.2.4, RFC 5861 §4).
    @Test(arguments: [
        ("max-age=1, must-revalidate", false), ("max-age=1, proxy-revalidate", false), ("s-maxage=1", false),
        ("max-age=60, no-cache", false), ("max-age=1", true), ("s-maxage=1, stale-if-error=60", true),
        ("max-age=1, must-revalidate, stale-if-error=60", true),
    ])
    func originDownServesStaleOnlyWhenAllowed(cacheControl: String, servesStale: Bool) async {
        let response = await EdgeFixture(cacheControl: cacheControl).requestAgain(after: 30) { await $0.set(isDown: true) }
        if servesStale {
            #expect(response.status == .ok)
            #expect(response.xCache == "STALE")
            #expect(response.cacheStatus == "edge; hit; fwd=stale; detail=origin-error")
            #expect(response.headerFields[.age] == "30")
        } else {
            #expect(response.status == .badGateway)
            #expect(response.xCache == "EXPIRED")
            #expect(response.cacheStatus == "edge; fwd=stale; detail=origin-unavailable")
            #expect(response.headerFields[.cacheControl] == "no-store")
            #expect(response.text.contains("connection refused"))
        }
    }

    @Test func staleIfErrorEndsAndCoversServerErrors() async {
        let fixture = EdgeFixture(cacheControl: "s-maxage=1, stale-if-error=60")
        let stale = await fixture.requestAgain(after: 30) { await $0.set(status: .serviceUnavailable) }
        #expect(stale.xCache == "STALE")
        #expect(stale.cacheStatus == "edge; hit; fwd=stale; fwd-status=503; detail=origin-error")
        fixture.clock.advance(60)
        // Not stored itself (a 503 with explicit freshness would be).
        await fixture.origin.set(cacheControl: "no-store")
        let error = await fixture.get()
        #expect(error.status == .serviceUnavailable)
        #expect(error.xCache == "BYPASS")
        await fixture.origin.set(isDown: true)
        #expect(await fixture.get().status == .badGateway)
    }

    @Test func originDownWithNothingStoredGives502() async {
        let fixture = EdgeFixture(cacheControl: "max-age=60")
        await fixture.origin.set(isDown: true)
        let response = await fixture.get()
        #expect(response.status == .badGateway)
        #expect(response.xCache == "MISS")
        #expect(response.cacheStatus == "edge; fwd=uri-miss; detail=origin-unavailable")
    }
}
