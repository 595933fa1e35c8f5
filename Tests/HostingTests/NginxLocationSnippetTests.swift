import Foundation
import SitePolicy
import Testing
@testable import Hosting

/// The nginx include, read as text: one regex location per rule in the policy's order, the
/// fields each location must repeat, and what nginx cannot send. `nginx -t` checks its syntax
/// (and PCRE its regexes) where nginx is installed, and must where the run requires it.
@Suite struct NginxLocationSnippetTests {
    static func rule(_ pattern: String, _ fields: [(String, String)]) throws -> HeaderRule {
        HeaderRule(pattern: try PathPattern(pattern), fields: try fields.map { try HeaderField(validatingName: $0.0, value: $0.1) })
    }

    /// A rule CORS covers in part, one it covers whole, one it does not touch, and values that
    /// need escaping or cannot be sent.
    static func policy() throws -> HeaderPolicy {
        HeaderPolicy(
            rules: [
                try rule("/data/**", [("Cache-Control", "public, max-age=60")]),
                try rule("/bundles/*.json", [("Cache-Control", "no-cache")]),
                try rule("/assets/**", [("X-Note", "say \"hi\" \\ bye"), ("X-Price", "$5"), ("X-Empty", "")]),
            ],
            cors: try CORSPolicy(allowOrigin: "https://app.example.com", paths: [try PathPattern("/data/*.json"), try PathPattern("/bundles/**")]))
    }

    /// The snippet's regex locations after the one that hides files, as (comment, regex, lines).
    static func locations(_ text: String) -> [(comment: String, regex: String, lines: [String])] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        var locations: [(comment: String, regex: String, lines: [String])] = []
        for (index, line) in lines.enumerated() where line.hasPrefix("location ~ \"") && index > 0 && lines[index - 1].hasPrefix("# ") {
            let regex = String(line.dropFirst("location ~ \"".count).dropLast("\" {".count))
            let body = lines[(index + 1)...].prefix { $0 != "}" }
            locations.append((String(lines[index - 1].dropFirst(2)), regex, Array(body)))
        }
        return Array(locations.dropFirst())
    }

    @Test func eachRuleIsALocationInThePolicysOrder() throws {
        let snippet = NginxLocationSnippet(plan: HeaderPlan(try Self.policy()))
        let locations = Self.locations(snippet.text)
        try #require(locations.count >= 4, "\(snippet.text)")
        let builtIn = HeaderPolicy.defaultRules.count
        #expect(locations.map(\.comment).prefix(4) == [
            "headers[0] \"/data/**\", where cors: applies", "headers[0] \"/data/**\"", "headers[1] \"/bundles/*.json\"", "headers[2] \"/assets/**\"",
        ])
        // CORS covers the built-in bundle rules whole and "*.html" and "/**" in part.
        #expect(locations.count == 4 + builtIn + 2)
        #expect(locations[0].regex == "^(?=(?:/data/[^./][^/]*\\.json|/bundles(?:/.*)?)$)/data(?:/.*)?$")
        #expect(locations[1].regex == "^/data(?:/.*)?$")
        #expect(locations[2].regex == "^/bundles/[^./][^/]*\\.json$")
        #expect(locations[3].regex == "^/assets(?:/.*)?$")
    }

    /// A location with `add_header` inherits none: each repeats the CORS fields where CORS
    /// applies and the common ones everywhere, with `always`; the rule's own go without it.
    @Test func eachLocationRepeatsTheFieldsItMustSend() throws {
        let text = NginxLocationSnippet(plan: HeaderPlan(try Self.policy())).text
        let locations = Self.locations(text)
        try #require(locations.count >= 4, "\(text)")
        let cors = "add_header Access-Control-Allow-Origin \"https://app.example.com\" always;"
        let nosniff = "add_header X-Content-Type-Options \"nosniff\" always;"
        #expect(locations[0].lines.first == "add_header Cache-Control \"public, max-age=60\";")
        #expect(locations[0].lines.contains(cors) && locations[0].lines.last == nosniff)
        #expect(locations[1].lines.first == "add_header Cache-Control \"public, max-age=60\";")
        #expect(!locations[1].lines.contains(cors) && locations[1].lines.last == nosniff)
        #expect(locations[2].lines.first == "add_header Cache-Control \"no-cache\";" && locations[2].lines.contains(cors))
        for location in locations {
            #expect(location.lines.last == nosniff, "\(location.comment)")
        }
    }

    @Test func valuesAreEscapedOrLeftOutWithAWarning() throws {
        let snippet = NginxLocationSnippet(plan: HeaderPlan(try Self.policy()))
        let locations = Self.locations(snippet.text)
        try #require(locations.count >= 4, "\(snippet.text)")
        let assets = locations[3]
        #expect(assets.lines == ["add_header X-Note \"say \\\"hi\\\" \\\\ bye\";", "add_header X-Content-Type-Options \"nosniff\" always;"])
        #expect(snippet.warnings.map(\.description) == [
            "\(NginxLocationSnippet.path) (nginx): headers[2] \"/assets/**\": X-Price is left out: nginx reads $ in add_header as a variable and has no escape for it",
            "\(NginxLocationSnippet.path) (nginx): headers[2] \"/assets/**\": X-Empty is left out: nginx does not send a field with an empty value",
        ])
    }

    @Test func sidecarsDotFilesAndTheHeadersFileAreHidden() throws {
        let text = NginxLocationSnippet(plan: HeaderPlan(.default)).text
        #expect(text.contains("    location ~ \"\\.gz$|/\\.|^/_headers$\" {\n        return 404;\n    }\n"))
        #expect(text.contains("gzip_static on;"))
    }

    /// Set by `.ci/run`: this run has nginx, and the check below must not be skipped.
    static let nginxRequired = ProcessInfo.processInfo.environment["BUNDLEPRESS_REQUIRE_NGINX"] == "1"
    static let nginx = "/usr/sbin/nginx"

    @Test(.enabled(if: NginxLocationSnippetTests.nginxRequired || FileManager.default.isExecutableFile(atPath: NginxLocationSnippetTests.nginx), "nginx is not installed"))
    func nginxAcceptsTheSnippet() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.nginx), "BUNDLEPRESS_REQUIRE_NGINX=1 but \(Self.nginx) is missing")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("HostingTests-nginx-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for file in HostingFiles(policy: try Self.policy(), publicDirectory: "site").files {
            let path = "\(directory)/site/\(file.path)"
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(file.bytes).write(to: URL(fileURLWithPath: path))
        }
        let config = "\(directory)/nginx.conf"
        try Data("""
            pid \(directory)/nginx.pid;
            error_log \(directory)/error.log;
            events {}
            http {
                access_log off;
                server {
                    listen unix:\(directory)/nginx.sock;
                    root \(directory)/site;
                    include \(directory)/site/\(NginxLocationSnippet.path);
                }
            }

            """.utf8).write(to: URL(fileURLWithPath: config))
        let nginx = Process()
        nginx.executableURL = URL(fileURLWithPath: Self.nginx)
        nginx.arguments = ["-t", "-q", "-e", "\(directory)/error.log", "-p", directory, "-c", config]
        let output = Pipe()
        nginx.standardError = output
        try nginx.run()
        let message = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        nginx.waitUntilExit()
        #expect(nginx.terminationStatus == 0, "\(message)")
    }
}
