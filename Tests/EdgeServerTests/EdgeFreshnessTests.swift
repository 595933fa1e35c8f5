import EdgeServer
import HTTPTypes
import NIOCore
import Testing

/// serving.md §3 items 25–26 and the freshness and age rules of RFC 9111 §4.2, with the fixture
/// manifest's policy `public, max-age=2, s-maxage=5, stale-while-revalidate=5`.
@Suite struct EdgeFreshnessTests {
    static let manifestPolicy = "public, max-age=2, s-maxage=5, stale-while-revalidate=5"

    /// Item 25.
    @Test func missThenHitWithAgeAndCacheStatus() async {
        let fixture = EdgeFixture(cacheControl: Self.manifestPolicy)
        let miss = await fixture.get()
        #expect(miss.status == .ok)
        #expect(miss.xCache == "MISS")
        #expect(miss.cacheStatus == "edge; fwd=uri-miss; stored")
        #expect(miss.headerFields[.age] == nil)
        fixture.clock.advance(1)
        let hit = await fixture.get()
        #expect(hit.xCache == "HIT")
        #expect(hit.headerFields[.age] == "1")
        #expect(hit.cacheStatus == "edge; hit; ttl=4")
        #expect(hit.text == "v1 /manifest.json")
        #expect(await fixture.get(query: "x=1").xCache == "MISS")
        #expect(await fixture.originRequests == 2)
    }

    /// Item 26: past max-age but within s-maxage the edge still serves from store.
    @Test func sharedMaxAgeWinsOverMaxAge() async {
        let hit = await EdgeFixture(cacheControl: Self.manifestPolicy).requestAgain(after: 3)
        #expect(hit.xCache == "HIT")
        #expect(hit.headerFields[.age] == "3")
        #expect(hit.cacheStatus == "edge; hit; ttl=2")
    }

    @Test func maxAgeCountsWithoutSharedMaxAge() async {
        #expect(await EdgeFixture(cacheControl: "max-age=2").requestAgain(after: 3).xCache == "REVALIDATED")
    }

    /// `Expires` − `Date` gives the lifetime when no max-age is present; an invalid `Expires` means
    /// already expired.
    @Test func expiresMinusDateIsTheLifetimeWithoutMaxAge() async {
        let fixture = EdgeFixture(cacheControl: nil)
        let date = HTTPDate(secondsSince1970: Int64(fixture.clock.now))
        await fixture.origin.set(extraFields: [.date: date.imfFixdate, .expires: date.adding(10).imfFixdate])
        _ = await fixture.get()
        fixture.clock.advance(4)
        let hit = await fixture.get()
        #expect(hit.xCache == "HIT")
        #expect(hit.cacheStatus == "edge; hit; ttl=6")
        fixture.clock.advance(7)
        #expect(await fixture.get().xCache == "REVALIDATED")
        await fixture.origin.set(extraFields: [.expires: "0"])
        #expect(await fixture.get(query: "other").xCache == "MISS")
        #expect(await fixture.get(query: "other").xCache == "REVALIDATED")
    }

    /// Hits within one second of `Age` share the response built for the first of them: the
    /// next second's hit counts on, and a freshened response is not served from before it.
    @Test func hitsCountAgeOnAcrossSecondsAndAfterRevalidation() async {
        let fixture = EdgeFixture(cacheControl: "max-age=2")
        _ = await fixture.get()
        #expect(await fixture.get().cacheStatus == "edge; hit; ttl=2")
        await fixture.origin.set(cacheControl: "max-age=2, stale-if-error=60")
        fixture.clock.advance(2.5)
        #expect(await fixture.get().xCache == "REVALIDATED")
        let afterRevalidation = await fixture.get()
        #expect(afterRevalidation.cacheStatus == "edge; hit; ttl=2")
        #expect(afterRevalidation.headerFields[.cacheControl] == "max-age=2, stale-if-error=60")
        for (advance, age, ttl) in [(0.3, "0", "ttl=1"), (0.4, "0", "ttl=1"), (0.5, "1", "ttl=0"), (0.2, "1", "ttl=0")] {
            fixture.clock.advance(advance)
            let hit = await fixture.get()
            #expect(hit.xCache == "HIT")
            #expect(hit.headerFields[.age] == age)
            #expect(hit.cacheStatus == "edge; hit; " + ttl)
        }
    }

    /// RFC 9111 §4.2.3: the age counts the origin's `Age` and the time since its `Date`.
    @Test func currentAgeCountsUpstreamAgeAndApparentAge() async {
        let fixture = EdgeFixture(cacheControl: "max-age=100")
        let tenSecondsAgo = HTTPDate(secondsSince1970: Int64(fixture.clock.now) - 10)
        await fixture.origin.set(extraFields: [.date: tenSecondsAgo.imfFixdate, .age: "30"])
        _ = await fixture.get()
        fixture.clock.advance(5)
        let hit = await fixture.get()
        #expect(hit.headerFields[.age] == "35")
        #expect(hit.cacheStatus == "edge; hit; ttl=65")
        await fixture.origin.set(extraFields: [.date: tenSecondsAgo.imfFixdate])
        _ = await fixture.get(query: "apparent")
        #expect(await fixture.get(query: "apparent").headerFields[.age] == "15")
    }

    /// Without any freshness information a response is stored but stale at once (no heuristics),
    /// and `no-cache` revalidates even a fresh response.
    @Test(arguments: [nil, "max-age=60, no-cache", "public, no-cache=\"set-cookie\", max-age=60"])
    func storedResponsesThatNeedValidationAreRevalidatedEveryTime(cacheControl: String?) async {
        let fixture = EdgeFixture(cacheControl: cacheControl)
        #expect(await fixture.get().cacheStatus == "edge; fwd=uri-miss; stored")
        #expect(await fixture.get().xCache == "REVALIDATED")
        #expect(await fixture.get().xCache == "REVALIDATED")
        #expect(await fixture.originRequests == 3)
    }

    @Test func headIsAnsweredFromTheStoredGetAndFetchedAsGet() async {
        let fixture = EdgeFixture(cacheControl: "max-age=60")
        #expect(await fixture.get(method: .head).xCache == "MISS")
        #expect(await fixture.origin.requests.first?.method == .get)
        #expect(await fixture.get().xCache == "HIT")
        #expect(await fixture.get(method: .head).xCache == "HIT")
    }

    /// The edge wants whole responses; the conditional layer in front of it answers the client's
    /// conditional and range fields.
    @Test func clientConditionalAndRangeFieldsAreNotForwarded() async throws {
        let fixture = EdgeFixture(cacheControl: "max-age=60")
        let response = await fixture.get([.ifNoneMatch: "\"v1\"", .range: "bytes=0-1", .ifRange: "\"v1\"", .acceptEncoding: "gzip"])
        #expect(response.status == .ok)
        let forwarded = try #require(await fixture.origin.requests.first)
        #expect(forwarded.headerFields[.ifNoneMatch] == nil)
        #expect(forwarded.headerFields[.range] == nil)
        #expect(forwarded.headerFields[.ifRange] == nil)
        #expect(forwarded.headerFields[.acceptEncoding] == "gzip")
    }

    @Test func anUpstreamCacheStatusComesFirst() async {
        let fixture = EdgeFixture(cacheControl: "max-age=60")
        await fixture.origin.set(extraFields: [HTTPField.Name("Cache-Status")!: "origin-cache; hit"])
        #expect(await fixture.get().cacheStatus == "origin-cache; hit, edge; fwd=uri-miss; stored")
        #expect(await fixture.get().cacheStatus == "origin-cache; hit, edge; hit; ttl=60")
    }

    /// RFC 9111 §5.1: the first element of the first `Age` line counts; one that is not a
    /// non-negative integer is ignored.
    @Test(arguments: [("7200, 0", "REVALIDATED"), ("0, 7200", "HIT"), ("-1", "HIT"), ("1.5", "HIT"), ("old", "HIT")])
    func ageUsesTheFirstValidElement(age: String, second: String) async {
        let fixture = EdgeFixture(cacheControl: "max-age=3600")
        await fixture.origin.set(extraFields: [.age: age])
        _ = await fixture.get()
        #expect(await fixture.get().xCache == second)
    }

    /// `Expires` on several lines is invalid, so the response is stale at once (RFC 9111 §5.3).
    @Test func expiresOnSeveralLinesIsExpired() async {
        let fixture = EdgeFixture(cacheControl: nil)
        let future = HTTPDate(secondsSince1970: Int64(fixture.clock.now) + 3600).imfFixdate
        var fields = HTTPFields()
        fields.append(HTTPField(name: .expires, value: future))
        fields.append(HTTPField(name: .expires, value: future))
        await fixture.origin.set(extraFields: fields)
        _ = await fixture.get()
        #expect(await fixture.get().xCache == "REVALIDATED")
        await fixture.origin.set(extraFields: [.expires: future])
        _ = await fixture.get(path: "/one")
        #expect(await fixture.get(path: "/one").xCache == "HIT")
    }

    /// Heuristic freshness (RFC 9111 §4.2.2): 10% of the time since `Last-Modified`, at most a
    /// day, only for heuristically cacheable statuses.
    @Test(arguments: [(HTTPResponse.Status.ok, 1_000.0, "edge; hit; ttl=100"), (.ok, 30 * 86_400, "edge; hit; ttl=86400"),
        (.found, 1_000.0, "edge; fwd=uri-miss; detail=status")])
    func heuristicFreshnessFromLastModified(status: HTTPResponse.Status, modifiedAgo: Double, second: String) async {
        let fixture = EdgeFixture(cacheControl: nil)
        await fixture.origin.set(status: status)
        await fixture.origin.set(extraFields: [.lastModified: HTTPDate(secondsSince1970: Int64(fixture.clock.now - modifiedAgo)).imfFixdate])
        _ = await fixture.get()
        #expect(await fixture.get().cacheStatus == second)
    }
}
