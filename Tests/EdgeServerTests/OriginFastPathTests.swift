import EdgeServer
import Foundation
import HTTPTypes
import Testing

/// `SiteOrigin.respondImmediately`: a cached file whose files are unchanged, `OPTIONS` and 405
/// are answered at once, exactly as `respond` answers them; a file not read yet, or changed on
/// disk since, waits for `respond`.
@Suite struct OriginFastPathTests {
    static let bundle = "/bundles/a.0123456789abcdef.bundle"

    static func makeSite(_ label: String = #function) throws -> TestSite {
        let site = try TestSite(label)
        try site.writeWithSidecar(String(bundle.dropFirst()), sampleBytes(5_000))
        return site
    }

    static func get(_ path: String = bundle, _ fields: HTTPFields = [:], method: HTTPRequest.Method = .get) -> ServerRequest {
        ServerRequest(method: method, path: path, headerFields: fields)
    }

    @Test func aFileNotReadYetWaitsForRespond() throws {
        let site = try Self.makeSite()
        defer { site.remove() }
        let origin = SiteOrigin(directory: site.path)
        #expect(origin.respondImmediately(to: Self.get()) == nil)
        #expect(origin.respondImmediately(to: Self.get(Self.bundle, [.acceptEncoding: "gzip"], method: .head)) == nil)
        #expect(origin.respondImmediately(to: Self.get("/missing.json")) == nil)
    }

    @Test func aCachedFileIsAnsweredAsRespondAnswersIt() async throws {
        let site = try Self.makeSite()
        defer { site.remove() }
        let origin = SiteOrigin(directory: site.path)
        _ = await origin.respond(to: Self.get())
        let requests = [
            Self.get(), Self.get(Self.bundle, [.acceptEncoding: "gzip"]), Self.get(Self.bundle, [.acceptEncoding: "br"], method: .head),
            ServerRequest(method: .get, path: Self.bundle, query: "v=2"), Self.get(Self.bundle, [.acceptEncoding: "identity;q=0"]),
        ]
        for request in requests {
            let fast = origin.respondImmediately(to: request)
            expectSameResponse(fast, await origin.respond(to: request))
        }
        #expect(origin.respondImmediately(to: Self.get(Self.bundle, [.acceptEncoding: "gzip"]))?.headerFields[.contentEncoding] == "gzip")
        #expect(origin.respondImmediately(to: Self.get(Self.bundle, [.acceptEncoding: "identity;q=0"]))?.status == .notAcceptable)
    }

    /// A rebuilt file, or a `.gz` that appears next to it, makes the cached copy stale: the fast
    /// path declines until `respond` has read the new files.
    @Test func aFileChangedOnDiskWaitsForRespond() async throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.write("bundles/manifest.json", "{\"v\":1}")
        let origin = SiteOrigin(directory: site.path)
        let manifest = Self.get("/bundles/manifest.json")
        let first = await origin.respond(to: manifest)
        #expect(origin.respondImmediately(to: manifest)?.headerFields[.eTag] == first.headerFields[.eTag])

        try site.write("bundles/manifest.json", "{\"v\":22}")
        #expect(origin.respondImmediately(to: manifest) == nil)
        let second = await origin.respond(to: manifest)
        #expect(second.headerFields[.eTag] != first.headerFields[.eTag])
        expectSameResponse(origin.respondImmediately(to: manifest), second)

        let gzipManifest = Self.get("/bundles/manifest.json", [.acceptEncoding: "gzip"])
        #expect(origin.respondImmediately(to: gzipManifest)?.headerFields[.contentEncoding] == nil)
        try site.writeGzip("bundles/manifest.json", Array("{\"v\":22}".utf8))
        #expect(origin.respondImmediately(to: gzipManifest) == nil)
        #expect(origin.respondImmediately(to: manifest) != nil, "a client that does not take gzip does not depend on the .gz")
        let gzipResponse = await origin.respond(to: gzipManifest)
        #expect(gzipResponse.headerFields[.contentEncoding] == "gzip")

        // The gzip response is the .gz's bytes: a rewrite of the identity file alone does not
        // change it (the next identity request reads both files again).
        try site.write("bundles/manifest.json", "{\"v\":333}")
        expectSameResponse(origin.respondImmediately(to: gzipManifest), gzipResponse)
        #expect(origin.respondImmediately(to: manifest) == nil)
        #expect(await origin.respond(to: manifest).text == "{\"v\":333}")
    }

    /// `OPTIONS` and other methods need no file, so they never wait.
    @Test func optionsAndOtherMethodsAreAnsweredAtOnce() async throws {
        let site = try TestSite()
        defer { site.remove() }
        let origin = SiteOrigin(directory: site.path)
        let preflight = ServerRequest(
            method: .options, path: "/bundles/x.bundle", headerFields: [.origin: "https://app.example", .accessControlRequestMethod: "GET"])
        for request in [preflight, Self.get("/anything", method: .delete), Self.get("/anything", method: .post)] {
            let fast = origin.respondImmediately(to: request)
            expectSameResponse(fast, await origin.respond(to: request))
        }
        #expect(origin.respondImmediately(to: preflight)?.status == .noContent)
        #expect(origin.respondImmediately(to: Self.get("/anything", method: .delete))?.status == .methodNotAllowed)
    }
}
