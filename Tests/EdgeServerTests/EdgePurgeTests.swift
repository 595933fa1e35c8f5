import EdgeServer
import Foundation
import HTTPTypes
import Testing

/// serving.md §3 item 32: `POST /__edge/purge` and the automatic purge when the site is republished.
@Suite struct EdgePurgeTests {
    /// Stores `/manifest.json`, `/manifest.json?x=1` and `/bundles/a.bundle`.
    func filledFixture() async -> EdgeFixture {
        let fixture = EdgeFixture(cacheControl: "max-age=600")
        _ = await fixture.get()
        _ = await fixture.get(query: "x=1")
        _ = await fixture.get(path: "/bundles/a.bundle")
        return fixture
    }

    @Test(arguments: ["path=/manifest.json", "path=%2Fmanifest.json", "path=%2fmanifest%2Ejson"])
    func purgesOnePathWithEveryQuery(query: String) async {
        let fixture = await filledFixture()
        let response = await fixture.purge(query: query)
        #expect(response.status == .ok)
        #expect(response.text == "200 OK: purged 2 entries\n")
        #expect(response.headerFields[.cacheControl] == "no-store")
        #expect(response.headerFields[.contentType] == "text/plain; charset=utf-8")
        #expect(await fixture.get().xCache == "MISS")
        #expect(await fixture.get(query: "x=1").xCache == "MISS")
        #expect(await fixture.get(path: "/bundles/a.bundle").xCache == "HIT")
    }

    @Test func purgesEverythingWithoutAQuery() async {
        let fixture = await filledFixture()
        #expect(await fixture.purge().text == "200 OK: purged 3 entries\n")
        #expect(await fixture.get(path: "/bundles/a.bundle").xCache == "MISS")
        #expect(await fixture.purge(query: "path=/bundles/a.bundle").text == "200 OK: purged 1 entry\n")
        #expect(await fixture.purge().text == "200 OK: purged 0 entries\n")
    }

    @Test func refusesOtherPeersMethodsAndQueries() async {
        let fixture = await filledFixture()
        #expect(await fixture.purge(loopback: false).status == .forbidden)
        let get = await fixture.purge(method: .get)
        #expect(get.status == .methodNotAllowed)
        #expect(get.headerFields[.allow] == "POST")
        for query in ["pth=/manifest.json", "path=manifest.json", "path=%zz", "path=/a&path=/b"] {
            let response = await fixture.purge(query: query)
            #expect(response.status == .badRequest, "\(query)")
            #expect(response.text.hasPrefix("400 Bad Request: "), "\(query)")
        }
        #expect(await fixture.get().xCache == "HIT")
    }

    /// A response requested before a purge is not stored after it.
    @Test func aFetchThatRacedAPurgeIsNotStored() async {
        let fixture = EdgeFixture(cacheControl: "max-age=600")
        await fixture.origin.close()
        async let racing = fixture.get()
        while await fixture.originRequests < 1 {
            await Task.yield()
        }
        _ = await fixture.purge()
        await fixture.origin.open()
        #expect(await racing.cacheStatus == "edge; fwd=uri-miss; detail=purged")
        #expect(await fixture.get().xCache == "MISS")
        #expect(await fixture.get().xCache == "HIT")
    }

    /// A rewritten or replaced manifest purges everything, noticed at most once per second.
    @Test func republishingTheSitePurgesEverything() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("EdgePurgeTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let manifest = directory.appendingPathComponent("manifest.json")
        try Data("{\"v\":1}".utf8).write(to: manifest)
        let fixture = EdgeFixture(cacheControl: "max-age=600", watchedFile: manifest.path)
        #expect(await fixture.get().xCache == "MISS")
        #expect(await fixture.get().xCache == "HIT")

        try Data("{\"v\":22}".utf8).write(to: manifest)
        fixture.clock.advance(0.5)
        #expect(await fixture.get().xCache == "HIT")
        fixture.clock.advance(0.5)
        #expect(await fixture.get().xCache == "MISS")
        #expect(await fixture.get().xCache == "HIT")

        let staged = directory.appendingPathComponent("manifest.json.tmp")
        try Data("{\"v\":33}".utf8).write(to: staged)
        #expect(rename(staged.path, manifest.path) == 0)
        fixture.clock.advance(1)
        #expect(await fixture.get().xCache == "MISS")
    }
}
