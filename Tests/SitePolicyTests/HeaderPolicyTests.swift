import Testing
@testable import SitePolicy

@Suite struct HeaderPolicyTests {
    private func cacheControl(_ policy: HeaderPolicy, _ path: String) -> String? {
        policy.headers(forPath: path).first { $0.name == "Cache-Control" }?.value
    }

    @Test(arguments: [
        ("/bundles/front-page.439cfd870e789558.bundle", HeaderPolicy.immutableCacheControl),
        ("/bundles/a.b-c_d.0123456789abcdef.bundle", HeaderPolicy.immutableCacheControl),
        // Not a content hash: 15 digits, upper case, no id, nested, other extension.
        ("/bundles/front-page.439cfd870e78955.bundle", HeaderPolicy.manifestCacheControl),
        ("/bundles/front-page.439CFD870E789558.bundle", HeaderPolicy.manifestCacheControl),
        ("/bundles/.439cfd870e789558.bundle", HeaderPolicy.otherCacheControl),
        ("/bundles/old/front-page.439cfd870e789558.bundle", HeaderPolicy.otherCacheControl),
        ("/bundles/front-page.439cfd870e789558.json", HeaderPolicy.otherCacheControl),
        ("/front-page.439cfd870e789558.bundle", HeaderPolicy.otherCacheControl),
        ("/bundles/manifest.json", HeaderPolicy.manifestCacheControl),
        ("/bundles/front-page.bundle", HeaderPolicy.manifestCacheControl),
        ("/index.html", HeaderPolicy.htmlCacheControl),
        ("/docs/page.html", HeaderPolicy.htmlCacheControl),
        ("/app.js", HeaderPolicy.otherCacheControl),
    ])
    func defaultCacheControl(path: String, expected: String) {
        #expect(cacheControl(.default, path) == expected)
    }

    /// For production hosts the built-in rules and nosniff keep to the folders a build writes;
    /// with the explorer at the output's root, that is every folder.
    @Test func productionHostsGetTheBuiltInRulesForWhatABuildWritesOnly() throws {
        let site = HeaderRule(pattern: try PathPattern("/assets/**"), fields: [try HeaderField(validatingName: "X-Robots-Tag", value: "noindex")])
        let policy = HeaderPolicy(rules: [site], cors: .default)
        #expect(policy.forProductionHosts(explorer: "") == policy)
        let bundlesOnly = policy.forProductionHosts(explorer: nil)
        #expect(bundlesOnly.rules == [site] && bundlesOnly.cors == policy.cors)
        #expect(bundlesOnly.builtInRules.map(\.pattern.source).suffix(1) == ["/bundles/**"])
        let withExplorer = policy.forProductionHosts(explorer: "tools/explorer")
        #expect(withExplorer.builtInRules.map(\.pattern.source).suffix(3) == ["/tools/explorer/*.html", "/tools/explorer/**", "/bundles/**"])
        for path in ["/bundles/manifest.json", "/bundles/a.0123456789abcdef.bundle", "/bundles/bundlepress.js", "/tools/explorer/index.html", "/tools/explorer/explorer.js"] {
            #expect(withExplorer.headers(forPath: path) == policy.headers(forPath: path), "\(path)")
        }
        for path in ["/", "/index.html", "/app.js", "/tools/index.html"] {
            #expect(withExplorer.headers(forPath: path) == [], "\(path)")
            #expect(bundlesOnly.headers(forPath: path) == [], "\(path)")
        }
        #expect(bundlesOnly.headers(forPath: "/tools/explorer/index.html") == [])
        #expect(bundlesOnly.headers(forPath: "/assets/a.css") == site.fields)
    }

    @Test func defaultCORSCoversTheBundlesDirectoryOnly() {
        let bundle = HeaderPolicy.default.headers(forPath: "/bundles/manifest.json")
        #expect(bundle.contains(HeaderField(name: "Access-Control-Allow-Origin", value: "*")))
        #expect(bundle.contains(HeaderField(name: "Access-Control-Expose-Headers", value: "ETag, Age, X-Cache, Cache-Status")))
        #expect(bundle.last == HeaderField(name: "X-Content-Type-Options", value: "nosniff"))
        let page = HeaderPolicy.default.headers(forPath: "/index.html")
        #expect(!page.contains { $0.name.hasPrefix("Access-Control") })
        #expect(page.contains(HeaderField(name: "X-Content-Type-Options", value: "nosniff")))
    }

    @Test func siteRulesComeFirstAndTheFirstMatchWins() throws {
        let policy = HeaderPolicy(
            rules: [
                HeaderRule(pattern: try PathPattern("/bundles/manifest.json"), fields: [try HeaderField(validatingName: "Cache-Control", value: "no-cache")]),
                HeaderRule(
                    pattern: try PathPattern("/bundles/**"),
                    fields: [try HeaderField(validatingName: "Cache-Control", value: "public, max-age=5"), try HeaderField(validatingName: "X-Site", value: "demo")]),
            ],
            cors: nil)
        #expect(policy.headers(forPath: "/bundles/manifest.json") == [
            HeaderField(name: "Cache-Control", value: "no-cache"), HeaderField(name: "X-Content-Type-Options", value: "nosniff"),
        ])
        #expect(policy.headers(forPath: "/bundles/a.0123456789abcdef.bundle").map(\.name) == ["Cache-Control", "X-Site", "X-Content-Type-Options"])
        #expect(cacheControl(policy, "/index.html") == HeaderPolicy.htmlCacheControl)
        #expect(policy.allRules.count == 2 + HeaderPolicy.defaultRules.count)
    }

    @Test(arguments: [
        ("Cache-Control", "public", nil),
        ("X-Custom_1", "a\tb", nil),
        ("Bad Name", "x", "not a valid header name"),
        ("Caché", "x", "not a valid header name"),
        ("", "x", "not a valid header name"),
        ("Content-Length", "1", "the server sets it"),
        ("content-encoding", "gzip", "the server sets it"),
        ("Transfer-Encoding", "chunked", "hop-by-hop"),
        ("Connection", "close", "hop-by-hop"),
        ("ETag", "\"x\"", "the server computes it"),
        ("Vary", "Origin", "the server computes it"),
        ("Access-Control-Allow-Origin", "*", "cors:"),
        ("Access-Control-Max-Age", "5", "cors:"),
        ("X-Split", "a\r\nInjected: yes", "control character"),
        ("X-Nul", "a\u{0}", "control character"),
        ("X-Padded", " a", "surrounding spaces"),
    ] as [(String, String, String?)])
    func headerFieldValidation(name: String, value: String, fragment: String?) {
        do {
            let field = try HeaderField(validatingName: name, value: value)
            #expect(fragment == nil, "accepted \(field)")
        } catch {
            #expect(fragment.map { error.description.contains($0) } == true, "\(error)")
        }
    }

    @Test func corsOriginValidation() throws {
        #expect(try CORSPolicy(allowOrigin: "https://app.example.com", paths: []).allowOrigin == "https://app.example.com")
        #expect(try CORSPolicy(allowOrigin: "http://localhost:5173", paths: []).allowOrigin == "http://localhost:5173")
        for bad in ["", "app.example.com", "https://app.example.com/", "https://a.com/path", "null", "*, https://a.com"] {
            #expect(throws: CORSPolicyError(allowOrigin: bad)) { try CORSPolicy(allowOrigin: bad, paths: []) }
        }
    }

    @Test(arguments: [
        ("/bundles/a.bundle", "application/octet-stream"),
        ("/bundles/manifest.json", "application/json"),
        ("/index.html", "text/html; charset=utf-8"),
        ("/app.JS", "text/javascript; charset=utf-8"),
        ("/style.css", "text/css; charset=utf-8"),
        ("/README", "application/octet-stream"),
        ("/.profile", "application/octet-stream"),
        ("/data.unknown", "application/octet-stream"),
    ])
    func contentTypes(path: String, expected: String) {
        #expect(ContentTypes.contentType(forPath: path) == expected)
    }
}
