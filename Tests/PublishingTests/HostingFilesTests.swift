import Foundation
import SitePolicy
import Testing
@testable import PipelineLanguage
@testable import Hosting
@testable import Publishing

/// The production header files: each host, reading its file the way its own code does (see
/// `HostEvaluators/`), sends for every path the fields `bundlepress serve` sends, or the build
/// warned about that rule on that host.
@Suite struct HostingFilesTests {
    /// A site's own rules over the defaults, and CORS for another origin on two patterns.
    static let policy: HeaderPolicy = {
        do {
            return try policy(headerSettings: """
                headers:
                  - source: /bundles/manifest.json
                    headers: { Cache-Control: "public, max-age=30, s-maxage=120" }
                  - source: "/assets/**"
                    headers: { Cache-Control: "public, max-age=86400", X-Robots-Tag: noindex }
                cors:
                  allow_origin: "https://app.example.com"
                  paths: ["/bundles/**", "/data/**/*.json"]

                """)
        } catch {
            preconditionFailure("the test config does not parse: \(error)")
        }
    }()

    /// The header policy of a one-bundle config with `settings` (its `headers:` and `cors:`).
    static func policy(headerSettings settings: String) throws -> HeaderPolicy {
        try parseConfig("project: demo\ninputs: [data.ndjson]\nbundles:\n  - id: b\n    documents: [c/a]\n" + settings).headerPolicy
    }

    static let hashedBundle = "/bundles/front-page.439cfd870e789558.bundle"
    /// One path per kind of file a site holds, and one per rule and CORS pattern.
    static let paths = [
        hashedBundle, hashedBundle + ".gz", "/bundles/manifest.json", "/bundles/notes.html",
        "/index.html", "/docs/guide.html", "/explorer.js", "/explorer.css", "/bundlepress.js",
        "/assets/logo.svg", "/assets/fonts/serif.woff2", "/data/2026/scores.json", "/data/readme.txt", "/robots.txt",
    ]

    enum Host: String, CaseIterable, CustomStringConvertible {
        case netlify, cloudflarePages, firebaseHosting, nginx

        var provider: HostingProvider { HostingProvider(rawValue: rawValue) ?? .nginx }
        var description: String { rawValue }

        func evaluator(_ files: HostingFiles) throws -> any HostEvaluator {
            let file = try #require(files.files.first { $0.path == fileName })
            let text = String(decoding: file.bytes, as: UTF8.self)
            switch self {
            case .netlify: return NetlifyEvaluator(text)
            case .cloudflarePages: return CloudflarePagesEvaluator(text)
            case .firebaseHosting: return try FirebaseHostingEvaluator(file.bytes)
            case .nginx: return try NginxEvaluator(text)
            }
        }

        var fileName: String {
            switch self {
            case .netlify, .cloudflarePages: return "_headers"
            case .firebaseHosting: return ".bundlepress-hosting/firebase-hosting.json"
            case .nginx: return ".bundlepress-hosting/nginx.conf"
            }
        }

        /// Hosts that can be told not to serve the `.gz` sidecars (the others are deployed without them).
        var hidesSidecars: Bool { self == .firebaseHosting || self == .nginx }

        /// What the host sends for a path no rule of its file takes: its own default Cache-Control,
        /// or for nginx, the fields of the server block (none here).
        var untouched: HostResponse {
            switch self {
            case .netlify: return .served(["cache-control": NetlifyEvaluator.defaultCacheControl])
            case .cloudflarePages: return .served(["cache-control": CloudflarePagesEvaluator.defaultCacheControl])
            case .firebaseHosting: return .served(["cache-control": FirebaseHostingEvaluator.defaultCacheControl])
            case .nginx: return .served([:])
            }
        }
    }

    /// For production hosts a build renders the policy for what it writes only: the bundles, and
    /// the explorer's folder when the config writes it there. Those paths get on every host what
    /// `bundlepress serve` sends; a site generator's pages and assets beside them get nothing from
    /// these files.
    @Test(arguments: Host.allCases, [nil, "explorer", "tools/explorer"])
    func productionFilesCoverOnlyWhatTheBuildWrites(host: Host, explorer: String?) throws {
        let policy = HeaderPolicy.default.forProductionHosts(explorer: explorer)
        let evaluator = try host.evaluator(HostingFiles(policy: policy, publicDirectory: "site"))
        let explorerFiles = explorer.map { ["/\($0)/index.html", "/\($0)/explorer.js", "/\($0)/explorer.css"] } ?? []
        for path in [Self.hashedBundle, "/bundles/manifest.json", "/bundles/snapshots/latest.0123456789abcdef.json", "/bundles/bundlepress.js"] + explorerFiles {
            #expect(HostResponse.expected(policy, path: path) == HostResponse.expected(.default, path: path), "\(path)")
            #expect(evaluator.response(forPath: path) == HostResponse.expected(.default, path: path), "\(host) \(path)")
        }
        if let explorer, host != .nginx {
            #expect(evaluator.response(forPath: "/\(explorer)/") == HostResponse.expected(.default, path: "/\(explorer)/index.html"), "\(host)")
        }
        // (Netlify reads `/bundles/*` as `^/bundles/?(.*)/?$`: a root file named `/bundles…` would get
        // the rule too; docs/deploying.md says so.)
        for path in ["/", "/index.html", "/news/slug/", "/news/slug/index.html", "/assets/app.js", "/robots.txt", "/app.js", "/tools/", "/tools/index.html"] {
            #expect(evaluator.response(forPath: path) == host.untouched, "\(host) \(path)")
            #expect(HostResponse.expected(policy, path: path) == .served([:]), "\(path)")
        }
    }

    /// The site's own rules stay as written in the files for production hosts, on its paths too;
    /// a rule that `bundles/` and the CORS paths each take in part (`*.json`) gets their fields
    /// exactly there (nginx: a location per combination).
    @Test(arguments: Host.allCases)
    func productionFilesKeepTheSitesOwnRules(host: Host) throws {
        let json = try Self.policy(headerSettings: """
            headers:
              - source: "*.json"
                headers: { Cache-Control: "public, max-age=5", X-Note: json }
            cors:
              allow_origin: "https://app.example.com"
              paths: ["/bundles/**", "/data/**/*.json"]

            """).forProductionHosts(explorer: nil)
        try expectProductionFiles(json, host: host, paths: ["/bundles/manifest.json", "/data/2026/scores.json", "/other/a.json", "/data/readme.txt", "/bundles/bundlepress.js"])
        let policy = Self.policy.forProductionHosts(explorer: nil)
        try expectProductionFiles(policy, host: host, paths: ["/assets/logo.svg", "/data/2026/scores.json", "/bundles/manifest.json", Self.hashedBundle])
        #expect(HostResponse.expected(policy, path: "/assets/logo.svg")["x-robots-tag"] == "noindex")
        #expect(HostResponse.expected(policy, path: "/data/2026/scores.json")["access-control-allow-origin"] == "https://app.example.com")
        #expect(HostResponse.expected(json, path: "/other/a.json") == .served(["cache-control": "public, max-age=5", "x-note": "json"]))
    }

    /// `host` sends for each of `paths` what `policy` says, or its default Cache-Control where the policy sets none.
    private func expectProductionFiles(_ policy: HeaderPolicy, host: Host, paths: [String]) throws {
        let evaluator = try host.evaluator(HostingFiles(policy: policy, publicDirectory: "site"))
        for path in paths {
            var expected = HostResponse.expected(policy, path: path)
            if case .served(var fields) = expected, fields["cache-control"] == nil, let hostDefault = host.untouched["cache-control"] {
                fields["cache-control"] = hostDefault
                expected = .served(fields)
            }
            #expect(evaluator.response(forPath: path) == expected, "\(host) \(path)")
        }
    }

    @Test(arguments: Host.allCases)
    func everyHostSendsTheServersCacheControlAndCORS(host: Host) throws {
        let files = HostingFiles(policy: Self.policy, publicDirectory: "site")
        let evaluator = try host.evaluator(files)
        for path in Self.paths {
            let response = evaluator.response(forPath: path)
            if host.hidesSidecars, path.hasSuffix(".gz") {
                #expect(response == .notServed, "\(host) \(path)")
                continue
            }
            let expected = HostResponse.expected(Self.policy, path: path)
            for name in ["cache-control", "access-control-allow-origin"] {
                #expect(response[name] == expected[name], "\(host) \(path) \(name)")
            }
            #expect(response == expected, "\(host) \(path)")
        }
    }

    /// A directory URL (`/`, `/news/slug/`) gets on the host the fields `bundlepress serve` sends
    /// for its index page. (nginx looks its locations up again for the index page itself.)
    @Test(arguments: [Host.netlify, .cloudflarePages, .firebaseHosting])
    func directoryURLsGetTheFieldsOfTheirIndexPages(host: Host) throws {
        let policy = try Self.policy(headerSettings: """
            headers:
              - source: /news/*/index.html
                headers: { Cache-Control: "public, max-age=10", X-Page: article }

            """)
        let evaluator = try host.evaluator(HostingFiles(policy: policy, publicDirectory: "site"))
        for (url, page) in [("/", "/index.html"), ("/news/slug/", "/news/slug/index.html")] {
            #expect(evaluator.response(forPath: url) == HostResponse.expected(policy, path: page), "\(host) \(url)")
        }
    }

    @Test(arguments: Host.allCases)
    func whereAHostDiffersTheBuildNamesTheRule(host: Host) throws {
        let files = HostingFiles(policy: Self.policy, publicDirectory: "site")
        let evaluator = try host.evaluator(files)
        let warned = files.warnings.filter { $0.hosts.contains(host.provider) }
        // Every path a rule decides, including names no bundlepress build writes.
        let extraPaths = ["/bundles/front-page.bundle", "/bundles/old/front-page.439cfd870e789558.bundle", "/bundles/FRONT.439cfd870e789558.bundle"]
        for path in Self.paths + extraPaths where !(host.hidesSidecars && path.hasSuffix(".gz")) {
            let expected = HostResponse.expected(Self.policy, path: path)
            guard evaluator.response(forPath: path) != expected else { continue }
            // The rule that decides the path, or one tried before it that is written wider.
            let rules = HeaderPlan(Self.policy).rules
            let decider = try #require(rules.firstIndex { $0.pattern.matches(path) })
            let explained = warned.contains { warning in
                warning.rule == rules[decider].label
                    || (rules[..<decider].contains { $0.label == warning.rule }
                        && warning.message.contains("also matches paths the pattern does not"))
            }
            #expect(explained, "\(host) \(path): \(evaluator.response(forPath: path)) without a warning for \(rules[decider].label)")
        }
    }

    @Test func theHeadersFileCannotTellAContentHashSoItSaysSo() throws {
        let files = HostingFiles(policy: .default, publicDirectory: "site")
        #expect(files.warnings.map(\.description) == [
            "_headers (Netlify, Cloudflare Pages): built-in \"/bundles/*.bundle\": written as /bundles/*.bundle, the same path as built-in "
                + "\"/bundles/<id>.<16 hex digits>.bundle\", which comes first; its paths get the fields of that rule instead",
            "_headers (Netlify, Cloudflare Pages): built-in \"/bundles/snapshots/<name>.<16 hex digits>.json\": written as /bundles/snapshots/*.json, "
                + "which also matches paths the pattern does not (a _headers path has no ? or […] and its * also matches /); those paths get these fields too",
            "_headers (Netlify, Cloudflare Pages): built-in \"/bundles/<id>.<16 hex digits>.bundle\": written as /bundles/*.bundle, which also "
                + "matches paths the pattern does not (a _headers path has no ? or […] and its * also matches /); those paths get these fields too",
        ])
        // A server-rendering snapshot is content-hashed like a bundle: cached for good on every host.
        for host in Host.allCases {
            #expect(try host.evaluator(files).response(forPath: "/bundles/snapshots/latest-stories.0123456789abcdef.json")["cache-control"] == HeaderPolicy.immutableCacheControl, "\(host)")
        }
        let alias = "/bundles/front-page.bundle"
        for host in [Host.netlify, .cloudflarePages] {
            #expect(try host.evaluator(files).response(forPath: alias)["cache-control"] == HeaderPolicy.immutableCacheControl)
        }
        for host in [Host.firebaseHosting, .nginx] {
            #expect(try host.evaluator(files).response(forPath: alias)["cache-control"] == HeaderPolicy.manifestCacheControl)
        }
    }

    @Test func aSiteRuleForAllBundlesLeavesNothingToApproximate() throws {
        let rule = HeaderRule(pattern: try PathPattern("/bundles/**"), fields: [try HeaderField(validatingName: "Cache-Control", value: "no-cache")])
        let policy = HeaderPolicy(rules: [rule], cors: .default)
        let files = HostingFiles(policy: policy, publicDirectory: "site")
        #expect(files.warnings == [])
        #expect(HeaderPlan(policy).rules.map(\.label) == ["headers[0] \"/bundles/**\"", "built-in \"*.html\"", "built-in \"/**\""])
        for host in Host.allCases {
            for path in [Self.hashedBundle, "/bundles/front-page.bundle", "/bundles/manifest.json", "/bundles/a.html", "/index.html"] {
                #expect(try host.evaluator(files).response(forPath: path) == HostResponse.expected(policy, path: path), "\(host) \(path)")
            }
        }
    }

    /// Netlify and Cloudflare Pages cannot be told so: their sites are deployed without these files.
    @Test(arguments: Host.allCases.filter(\.hidesSidecars))
    func configurationAndSidecarsAreNotServed(host: Host) throws {
        let evaluator = try host.evaluator(HostingFiles(policy: .default, publicDirectory: "site"))
        for path in ["/bundles/a.0123456789abcdef.bundle.gz", "/_headers", "/.bundlepress-hosting/nginx.conf", "/.bundlepress.lock"] {
            #expect(evaluator.response(forPath: path) == .notServed, "\(host) \(path)")
        }
    }

    @Test func nginxSendsTheContentTypesOfTheServer() throws {
        let snippet = try #require(HostingFiles(policy: .default, publicDirectory: "site").files.last)
        let nginx = try NginxEvaluator(String(decoding: snippet.bytes, as: UTF8.self))
        #expect(nginx.types == ContentTypes.byExtension)
        #expect(nginx.directives.contains { $0.words == ["default_type", ContentTypes.fallback] })
    }

    @Test func aRuleWithoutCacheControlGetsTheCatchAllsWhereHostsCannotRemoveIt() throws {
        let rule = HeaderRule(pattern: try PathPattern("/private/**"), fields: [try HeaderField(validatingName: "X-Robots-Tag", value: "noindex")])
        let policy = HeaderPolicy(rules: [rule], cors: .default)
        let files = HostingFiles(policy: policy, publicDirectory: "site")
        let leak = "headers[0] \"/private/**\": these hosts apply every matching rule and cannot remove a field, so paths this rule "
            + "decides also get Cache-Control from built-in \"*.html\" (public, max-age=0, must-revalidate), built-in \"/**\" "
            + "(public, max-age=300); set Cache-Control in this rule to replace it"
        #expect(files.warnings.filter { $0.rule == "headers[0] \"/private/**\"" }.map(\.description) == [
            "_headers (Netlify): \(leak)", ".bundlepress-hosting/firebase-hosting.json (Firebase Hosting): \(leak)",
        ])
        // Cloudflare Pages clears it with "! Cache-Control" and nginx uses one location: exact.
        for host in [Host.cloudflarePages, .nginx] {
            #expect(try host.evaluator(files).response(forPath: "/private/a.txt") == HostResponse.expected(policy, path: "/private/a.txt"))
        }
    }

    @Test func rulesThatCannotMatchTheSamePathDoNotWarn() throws {
        let policy = HeaderPolicy(
            rules: [
                HeaderRule(pattern: try PathPattern("/a/**"), fields: [try HeaderField(validatingName: "X-A", value: "1")]),
                HeaderRule(pattern: try PathPattern("/b/**"), fields: [try HeaderField(validatingName: "X-B", value: "2")]),
                HeaderRule(pattern: try PathPattern("*.json"), fields: [try HeaderField(validatingName: "X-C", value: "3")]),
                HeaderRule(pattern: try PathPattern("*.html"), fields: [try HeaderField(validatingName: "X-D", value: "4")]),
            ],
            cors: nil)
        let leaks = HeaderPlan(policy).leaks.flatMap { leak in leak.sources.map { "\(leak.rule.label) \(leak.fieldName) \($0.label)" } }
        // /a/** and /b/** share no path; *.json and *.html neither; /a/x.json is in both /a/** and *.json.
        #expect(!leaks.contains("headers[0] \"/a/**\" X-B headers[1] \"/b/**\""))
        #expect(!leaks.contains("headers[2] \"*.json\" X-D headers[3] \"*.html\""))
        #expect(leaks.contains("headers[0] \"/a/**\" X-C headers[2] \"*.json\""))
    }

    @Test func valuesNginxCannotSendAreLeftOutWithAWarning() throws {
        let rule = HeaderRule(pattern: try PathPattern("/a/**"), fields: [
            try HeaderField(validatingName: "Cache-Control", value: "no-cache"),
            try HeaderField(validatingName: "X-Price", value: "$5"),
            try HeaderField(validatingName: "X-Empty", value: ""),
        ])
        let files = HostingFiles(policy: HeaderPolicy(rules: [rule], cors: nil), publicDirectory: "site")
        let nginx = try Host.nginx.evaluator(files).response(forPath: "/a/b")
        #expect(nginx["cache-control"] == "no-cache" && nginx["x-price"] == nil && nginx["x-empty"] == nil)
        #expect(files.warnings.filter { $0.hosts == [.nginx] }.map(\.message) == [
            "X-Price is left out: nginx reads $ in add_header as a variable and has no escape for it",
            "X-Empty is left out: nginx does not send a field with an empty value",
        ])
        #expect(files.warnings.contains { $0.file == "_headers" && $0.message.hasPrefix("X-Empty is left out") })
        #expect(try Host.cloudflarePages.evaluator(files).response(forPath: "/a/b")["x-price"] == "$5")
    }

    @Test func writeReplacesOnlyWhatChanged() throws {
        let site = try TemporaryDirectory()
        defer { site.remove() }
        let files = HostingFiles(policy: .default, publicDirectory: "site")
        #expect(try files.write(into: site.path) == ["_headers", ".bundlepress-hosting/firebase-hosting.json", ".bundlepress-hosting/nginx.conf"])
        #expect(try files.write(into: site.path) == [])
        let changed = HostingFiles(policy: .default, publicDirectory: "public")
        #expect(try changed.write(into: site.path) == [".bundlepress-hosting/firebase-hosting.json"])
        let onDisk = try site.snapshot()
        #expect(onDisk.keys.sorted() == changed.files.map(\.path).sorted())
        for file in changed.files {
            let expected = file.isShared ? Array(try MarkedBlock.placing(String(decoding: file.bytes, as: UTF8.self), in: nil).utf8) : file.bytes
            #expect(onDisk[file.path].map(Array.init) == expected)
        }
        #expect(changed.files.filter(\.isShared).map(\.path) == ["_headers"])
    }
}
