import Foundation
import NIOHTTP1
import Testing

/// `build --previous URL` from a fresh checkout: what the deployed site answers, and the exit
/// status and message a user then sees. A failure publishes nothing (exit 69, EX_UNAVAILABLE:
/// try again later); a site that answers 404 for its manifest is a new site.
@Suite("The previous state fetched from a deployed site")
struct PreviousSiteTests {
    /// The example built once, its manifest and bundles as a server's routes.
    static func publishedRoutes(of example: ExampleCopy) throws -> [String: RouteTableServer.Answer] {
        let build = try example.run("build", "--quiet")
        try #require(build.status == 0, "\(build)")
        var routes: [String: RouteTableServer.Answer] = [:]
        for (path, bytes) in try example.siteFiles() where path.hasPrefix("bundles/") && !path.hasSuffix(".gz") {
            routes["/" + path] = RouteTableServer.Answer(status: .ok, body: Array(bytes))
        }
        try #require(routes["/bundles/manifest.json"] != nil && routes.count > 1, "\(routes.keys.sorted())")
        return routes
    }

    /// Builds the example into `fresh` with `--previous previous` (`--quiet`: errors only).
    static func buildFresh(_ example: ExampleCopy, previous: String) throws -> RunResult {
        try runBundlepress(["build", "--quiet", "--output", "fresh", "--previous", previous], in: example.path)
    }

    /// Expects exit 69 with the one error line a failed fetch prints, and nothing published.
    static func expectUnavailable(_ result: RunResult, _ example: ExampleCopy, source: String, message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 69, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("error: cannot read the previous state: \(source): \(message)"), "\(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasSuffix("; nothing was published (fix previous:, or set it to none if nothing was published before)\n"), "\(result)", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: example.file("fresh/bundles/manifest.json")), sourceLocation: sourceLocation)
    }

    /// Runs `body` against a server answering `routes`, then stops it.
    static func serving(_ routes: [String: RouteTableServer.Answer], _ body: (String) throws -> Void) async throws {
        let server = try await RouteTableServer(routes)
        do {
            try body(server.baseURL)
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }

    @Test func aManifestAnswering404IsANewSite() async throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        try await Self.serving([:]) { base in
            let result = try runBundlepress(["build", "--output", "fresh", "--previous", base], in: example.path)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr == "warning: \(base) answers 404 for bundles/manifest.json: nothing was published there yet, so this is built as a new site\n", "\(result)")
            #expect(FileManager.default.fileExists(atPath: example.file("fresh/bundles/manifest.json")))
        }
    }

    @Test(arguments: [(503, "503 Service Unavailable"), (403, "403 Forbidden"), (500, "500 Internal Server Error")])
    func anotherStatusFailsTheBuild(status: Int, text: String) async throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        try await Self.serving(["/bundles/manifest.json": .init(status: .init(statusCode: status), body: [])]) { base in
            Self.expectUnavailable(try Self.buildFresh(example, previous: base), example,
                source: base + "bundles/manifest.json", message: "the server answered \(text)")
        }
    }

    @Test func anUnreachableHostFailsTheBuild() async throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        // A port that was just free: nothing listens there now.
        let server = try await RouteTableServer([:])
        let base = server.baseURL
        try await server.stop()
        let result = try Self.buildFresh(example, previous: base)
        Self.expectUnavailable(result, example, source: base + "bundles/manifest.json", message: "cannot fetch it: ")
        #expect(result.stderr.lowercased().contains("refused"), "\(result)")
    }

    /// The site's base URL, with or without its slash, or its manifest's URL: the same state,
    /// and the very bundles a build that kept its output publishes.
    @Test(arguments: ["", "bundles/manifest.json", "-"])
    func theSiteOrItsManifestURL(suffix: String) async throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let routes = try Self.publishedRoutes(of: example)
        try await Self.serving(routes) { base in
            let previous = suffix == "-" ? String(base.dropLast()) : base + suffix
            let result = try runBundlepress(["build", "--output", "fresh", "--previous", previous, "--json"], in: example.path)
            #expect(result.status == 0 && result.stderr == "", "\(result)")
            #expect(result.stdout.contains("\"previousState\" : \"\(previous)\""), "\(result)")
            #expect(try example.read("fresh/bundles/manifest.json") == (try example.read("site/bundles/manifest.json")))
        }
    }

    @Test func aListedBundleMissingFailsTheBuild() async throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        var routes = try Self.publishedRoutes(of: example)
        let bundle = try #require(routes.keys.filter { $0.hasSuffix(".bundle") }.min())
        routes[bundle] = nil
        try await Self.serving(routes) { base in
            Self.expectUnavailable(try Self.buildFresh(example, previous: base), example,
                source: base + bundle.dropFirst(), message: "listed in the manifest but not there")
        }
    }

    @Test func aCorruptManifestFailsTheBuild() async throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        var routes = try Self.publishedRoutes(of: example)
        routes["/bundles/manifest.json"]?.body = Array("{\"bundles\": ".utf8)
        try await Self.serving(routes) { base in
            Self.expectUnavailable(try Self.buildFresh(example, previous: base), example,
                source: base + "bundles/manifest.json", message: "not a bundlepress manifest (")
        }
    }

    @Test func aCorruptBundleFailsTheBuild() async throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        var routes = try Self.publishedRoutes(of: example)
        let bundle = try #require(routes.keys.filter { $0.hasSuffix(".bundle") }.min())
        routes[bundle]?.body = Array("12{\"metadata\": ".utf8)
        try await Self.serving(routes) { base in
            Self.expectUnavailable(try Self.buildFresh(example, previous: base), example,
                source: base + bundle.dropFirst(), message: "not a readable bundle: ")
        }
    }
}
