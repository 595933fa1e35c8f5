import JSONCore
import SitePolicy
import Testing
@testable import PipelineLanguage

/// `headers:` and `cors:` in pipeline.yml: parsed into the policy, or an error at the line.
@Suite struct HeaderConfigTests {
    /// A valid config with `extra` appended at line 6.
    private func config(_ extra: String) -> String {
        "project: demo\ninputs: [data.ndjson]\nbundles:\n  - id: b\n    documents: [c/a]\n" + extra
    }

    @Test func withoutHeadersTheDefaultPolicyApplies() throws {
        #expect(try parseConfig(config("")).headerPolicy == .default)
    }

    @Test func rulesAndCORSAreRead() throws {
        let policy = try parseConfig(config("""
            headers:
              - source: "/bundles/manifest.json"
                headers: { Cache-Control: "public, max-age=10", X-Robots-Tag: noindex }
              - source: "*.html"
                headers:
                  Cache-Control: no-cache
            cors:
              allow_origin: "https://app.example.com"
              paths: ["/bundles/**", "/api/*.json"]

            """)).headerPolicy
        #expect(policy.rules.map(\.pattern.source) == ["/bundles/manifest.json", "*.html"])
        #expect(policy.headers(forPath: "/bundles/manifest.json").map(\.description) == [
            "Cache-Control: public, max-age=10", "X-Robots-Tag: noindex",
            "Access-Control-Allow-Origin: https://app.example.com", "Access-Control-Expose-Headers: ETag, Age, X-Cache, Cache-Status",
            "X-Content-Type-Options: nosniff",
        ])
        #expect(policy.cors?.applies(toPath: "/api/x.json") == true)
        #expect(policy.cors?.applies(toPath: "/index.html") == false)
        // Paths no site rule matches still get the defaults.
        let bundle = policy.headers(forPath: "/bundles/b.0123456789abcdef.bundle")
        #expect(bundle.first?.description == "Cache-Control: \(HeaderPolicy.immutableCacheControl)")
    }

    @Test func corsCanBeTurnedOffOrGivenOnlyAnOriginOrOnlyPaths() throws {
        #expect(try parseConfig(config("cors: false\n")).headerPolicy.cors == nil)
        let origin = try #require(try parseConfig(config("cors: { allow_origin: \"http://localhost:3000\" }\n")).headerPolicy.cors)
        #expect(origin.allowOrigin == "http://localhost:3000")
        #expect(origin.paths == CORSPolicy.default.paths)
        let paths = try #require(try parseConfig(config("cors: { paths: \"/**\" }\n")).headerPolicy.cors)
        #expect(paths.allowOrigin == "*")
        #expect(paths.applies(toPath: "/index.html"))
    }

    @Test(arguments: [
        ("headers:\n  - source: /a\n    header: { X-A: b }\n", 8, 5, "unknown key \"header\" in headers[0]; expected one of: source, headers"),
        ("headers:\n  - headers: { X-A: b }\n", 7, 5, "headers[0] needs a \"source\" key"),
        ("headers:\n  - source: /a\n", 7, 5, "headers[0] needs a \"headers\" key"),
        ("headers:\n  - source: \"\"\n    headers: { X-A: b }\n", 7, 13, "path pattern cannot be empty"),
        ("headers:\n  - source: \"/a**\"\n    headers: { X-A: b }\n", 7, 13, "** must be a whole segment"),
        ("headers:\n  - source: /a\n    headers: { Content-Length: \"5\" }\n", 8, 16, "the header Content-Length cannot be set by a rule"),
        ("headers:\n  - source: /a\n    headers: { Transfer-Encoding: chunked }\n", 8, 16, "hop-by-hop"),
        ("headers:\n  - source: /a\n    headers: { \"Bad Name\": x }\n", 8, 16, "\"Bad Name\" is not a valid header name"),
        ("headers:\n  - source: /a\n    headers: { X-A: \"a\\r\\nB: c\" }\n", 8, 21, "contains a control character"),
        ("headers:\n  - source: /a\n    headers: { X-A: b, x-a: c }\n", 8, 24, "set twice in this rule"),
        ("headers:\n  - source: /a\n    headers: {}\n", 8, 14, "must set at least one header"),
        ("headers:\n  - source: /a\n    headers: { Access-Control-Allow-Origin: \"*\" }\n", 8, 16, "cors:"),
        ("headers: { source: /a }\n", 6, 10, "headers must be a list"),
        ("cors: { allow_origin: \"https://a.com/\" }\n", 6, 23, "is not \"*\" or an origin"),
        ("cors: { allow_orgin: \"*\" }\n", 6, 9, "unknown key \"allow_orgin\" in cors"),
        ("cors: { paths: [] }\n", 6, 16, "cors.paths must list at least one pattern"),
        ("cors: true\n", 6, 7, "cors: true is the default"),
    ])
    func errorsNameTheLine(extra: String, line: Int, column: Int, fragment: String) throws {
        let error = try #require(configError(config(extra)))
        #expect(error.location == SourceLocation(file: "pipeline.yml", line: line, column: column), "\(error)")
        #expect(error.message.contains(fragment), "\(error)")
    }

    @Test func outputDirectoryIsResolvedAgainstTheConfigFolder() throws {
        let parsed = try PipelineConfig.parse(yaml: config("output: public\n"), file: "/srv/site/pipeline.yml", baseDirectory: "/srv/site")
        #expect(parsed.outputDirectory == "/srv/site/public")
        #expect(try parseConfig(config("output: /var/www\n")).outputDirectory == "/var/www")
    }
}
