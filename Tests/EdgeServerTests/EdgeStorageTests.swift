import HTTPTypes
import NIOCore
import Testing

@testable import EdgeServer

/// serving.md §3 items 28–30 and the storing rules of RFC 9111 §3, §4.1 and §4.4.
@Suite struct EdgeStorageTests {
    /// Item 28: a shared cache never stores no-store or private responses.
    @Test(arguments: [("no-store", "no-store"), ("private, max-age=60", "private"), ("public, max-age=60, private=\"x\"", "private")])
    func uncacheableResponsesAreBypassedEveryTime(cacheControl: String, detail: String) async {
        let fixture = EdgeFixture(cacheControl: cacheControl)
        for _ in 0..<3 {
            let response = await fixture.get()
            #expect(response.xCache == "BYPASS")
            #expect(response.cacheStatus == "edge; fwd=bypass; detail=\(detail)")
        }
        #expect(await fixture.originRequests == 3)
    }

    /// Item 29: the secondary key is the normalised `Accept-Encoding`.
    @Test func varyMatchAndVaryMiss() async {
        let edge = EdgeCache(origin: TwoRepresentationOrigin(), configuration: EdgeConfiguration(clock: ManualClock().edgeClock))
        func get(_ fields: HTTPFields) async -> ServerResponse { await edge.respond(to: request(.get, fields)) }
        #expect(await get([.acceptEncoding: "gzip, br"]).xCache == "MISS")
        let hit = await get([.acceptEncoding: "gzip, br"])
        #expect(hit.xCache == "HIT")
        #expect(hit.body.buffer == TwoRepresentationOrigin.gzipBody)
        let identity = await get([:])
        #expect(identity.xCache == "MISS")
        #expect(identity.cacheStatus == "edge; fwd=vary-miss; stored")
        #expect(identity.body.buffer == TwoRepresentationOrigin.identityBody)
        #expect(await get([:]).body.buffer == TwoRepresentationOrigin.identityBody)
        let normalised = await get([.acceptEncoding: "GZIP,br"])
        #expect(normalised.xCache == "HIT")
        #expect(normalised.body.buffer == TwoRepresentationOrigin.gzipBody)
    }

    /// Item 30: the conditional layer in front of the edge answers a client's `If-None-Match`
    /// and `Range` from a fresh stored response.
    @Test func conditionalsAreAnsweredFromTheStore() async throws {
        let clock = ManualClock()
        let edge = EdgeCache(origin: TwoRepresentationOrigin(), configuration: EdgeConfiguration(clock: clock.edgeClock))
        let chain = ConditionalResponder(wrapping: edge)
        _ = try await chain.respond(to: request(.get, [.acceptEncoding: "gzip"]))
        clock.advance(2)
        let notModified = try await chain.respond(to: request(.get, [.acceptEncoding: "gzip", .ifNoneMatch: TwoRepresentationOrigin.gzipTag]))
        #expect(notModified.status == .notModified)
        #expect(notModified.xCache == "HIT")
        #expect(notModified.headerFields[.age] == "2")
        let partial = try await chain.respond(to: request(.get, [.acceptEncoding: "gzip", .range: "bytes=0-9"]))
        #expect(partial.status == .partialContent)
        #expect(partial.xCache == "HIT")
        #expect(partial.headerFields[.contentRange] == "bytes 0-9/600")
    }

    @Test func varyStarIsNeverStored() async {
        let fixture = EdgeFixture(cacheControl: "max-age=60")
        await fixture.origin.set(extraFields: [.vary: "Accept-Encoding, *"])
        #expect(await fixture.get().cacheStatus == "edge; fwd=uri-miss; detail=vary-star")
        #expect(await fixture.get().xCache == "MISS")
    }

    /// RFC 9111 §3: a status outside the heuristically cacheable list is stored only with
    /// explicit freshness; a listed one also without.
    @Test func statusesOutsideTheListAreStoredOnlyWithExplicitFreshness() async {
        let fixture = EdgeFixture(cacheControl: nil)
        await fixture.origin.set(status: .found)
        #expect(await fixture.get().cacheStatus == "edge; fwd=uri-miss; detail=status")
        #expect(await fixture.get().xCache == "MISS")
        await fixture.origin.set(cacheControl: "max-age=60")
        #expect(await fixture.get(query: "302").cacheStatus == "edge; fwd=uri-miss; stored")
        #expect(await fixture.get(query: "302").xCache == "HIT")
        await fixture.origin.set(status: .notFound)
        #expect(await fixture.get(query: "404").xCache == "MISS")
        #expect(await fixture.get(query: "404").xCache == "HIT")
    }

    /// `must-understand` (RFC 9111 §5.2.2.3): a status the edge understands is stored despite
    /// `no-store`; another is not.
    @Test(arguments: [(HTTPResponse.Status.ok, "HIT"), (HTTPResponse.Status(code: 299), "BYPASS")])
    func mustUnderstandOverridesNoStoreOnlyForUnderstoodStatuses(status: HTTPResponse.Status, second: String) async {
        let fixture = EdgeFixture(cacheControl: "max-age=60, no-store, must-understand")
        await fixture.origin.set(status: status)
        _ = await fixture.get()
        #expect(await fixture.get().xCache == second)
    }

    /// RFC 9111 §3.5: a response to a request with `Authorization` is stored only when the
    /// response allows it explicitly.
    @Test(arguments: [("max-age=60", false), ("public, max-age=60", true), ("s-maxage=60", true), ("max-age=60, must-revalidate", true)])
    func authorizedRequestsAreStoredOnlyWhenAllowed(cacheControl: String, stored: Bool) async {
        let fixture = EdgeFixture(cacheControl: cacheControl)
        let first = await fixture.get([.authorization: "Bearer t"])
        #expect(first.xCache == (stored ? "MISS" : "BYPASS"))
        #expect(stored || first.cacheStatus == "edge; fwd=bypass; detail=authorization")
        #expect(await fixture.get().xCache == (stored ? "HIT" : "MISS"))
    }

    /// RFC 9111 §4.4: a non-error answer to an unsafe method invalidates the target; an error
    /// answer (the file origin's 405) does not. Other methods are never stored.
    @Test func unsafeMethodsInvalidateTheTarget() async {
        let fixture = EdgeFixture(cacheControl: "max-age=60")
        _ = await fixture.get()
        let refused = await fixture.get(method: .post)
        #expect(refused.status == .methodNotAllowed)
        #expect(refused.cacheStatus == "edge; fwd=bypass; detail=method")
        #expect(await fixture.get().xCache == "HIT")
        #expect(await fixture.get(method: .options).xCache == "BYPASS")
        #expect(await fixture.get().xCache == "HIT")
        await fixture.origin.set(statusForOtherMethods: .noContent)
        #expect(await fixture.get(method: .delete).xCache == "BYPASS")
        #expect(await fixture.get().xCache == "MISS")
    }

    @Test func responsesLargerThanTheBoundAreServedButNotStored() async {
        let fixture = EdgeFixture(cacheControl: "max-age=60", maxStoredBytes: 16)
        let response = await fixture.get()
        #expect(response.text == "v1 /manifest.json")
        #expect(response.cacheStatus == "edge; fwd=uri-miss; detail=too-large")
        #expect(await fixture.get().xCache == "MISS")
    }

    /// The store evicts the least recently used response, not the oldest one.
    @Test func storeEvictsTheLeastRecentlyUsedResponse() throws {
        var store = EdgeStore(capacity: 250)
        let keys = ["/a", "/b", "/c"].map { CacheKey(request(.get, path: $0), includingHost: false) }
        func response() throws -> StoredResponse {
            let body = ByteBuffer(repeating: 0x61, count: 100)
            return try #require(StoredResponse(ServerResponse(status: .ok, body: body), for: [:], requestTime: 0, responseTime: 0))
        }
        func isStored(_ key: CacheKey) -> Bool {
            if case .found = store.lookup(key, request: [:], at: 0, { _ in }) { return true }
            return false
        }
        #expect(store.insert(try response(), under: keys[0], for: [:]))
        #expect(store.insert(try response(), under: keys[1], for: [:]))
        #expect(isStored(keys[0]))
        #expect(store.insert(try response(), under: keys[2], for: [:]))
        #expect(store.count == 2)
        #expect(store.storedBytes == 200)
        #expect(!isStored(keys[1]))
        #expect(isStored(keys[0]))
        #expect(isStored(keys[2]))
        #expect(store.removeAll() == 2)
        #expect(store.storedBytes == 0)
    }
}
