import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SystemSupport
import Testing

/// `bundlepress serve` as a user runs it: the built binary on a copy of the example.
@Suite("bundlepress serve", .timeLimit(.minutes(5)))
struct ServeCommandTests {
    /// A running `bundlepress serve`, its output going to files.
    final class ServeProcess {
        let process = Process()
        let stdoutURL: URL
        let stderrURL: URL

        /// Starts `bundlepress serve` with `arguments` in `directory`, under `ulimit -n
        /// openFileLimit` when one is given.
        init(_ arguments: [String], in directory: String, openFileLimit: Int? = nil) throws {
            let binary = try bundlepressBinary.get()
            let outputs = URL(fileURLWithPath: directory).appendingPathComponent("serve-output-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
            stdoutURL = outputs.appendingPathComponent("stdout")
            stderrURL = outputs.appendingPathComponent("stderr")
            try Data().write(to: stdoutURL)
            try Data().write(to: stderrURL)
            if let openFileLimit {
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = ["-c", "ulimit -n \(openFileLimit) && exec \"$0\" \"$@\"", binary, "serve"] + arguments
            } else {
                process.executableURL = URL(fileURLWithPath: binary)
                process.arguments = ["serve"] + arguments
            }
            process.currentDirectoryURL = URL(fileURLWithPath: directory)
            process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
            process.standardError = try FileHandle(forWritingTo: stderrURL)
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }

        var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

        /// The URL from the `Serving … at URL` line, once printed (nil if the process exits first,
        /// or after two minutes: a loaded machine may take long to start a debug binary).
        func waitForURL() async throws -> URL? {
            let deadline = ContinuousClock.now + .seconds(120)
            while ContinuousClock.now < deadline {
                if let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix("Serving ") }), let url = line.split(separator: " ").last {
                    return URL(string: String(url))
                }
                guard process.isRunning else { return nil }
                try await Task.sleep(for: .milliseconds(50))
            }
            return nil
        }

        /// Sends `signal` and waits for the exit status.
        func stop(_ signal: Int32 = SIGTERM) async throws -> Int32 {
            if process.isRunning { kill(process.processIdentifier, signal) }
            while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
            return process.terminationStatus
        }
    }

    @Test func servesTheBuiltSiteWithThePolicyOfTheConfig() async throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        try example.write("pipeline.yml", try example.read("pipeline.yml") + """

            headers:
              - source: /bundles/manifest.json
                headers: { Cache-Control: "public, max-age=5", X-Site: demo }

            """)
        #expect(try example.run("build", "--quiet").status == 0)
        let server = try ServeProcess(["--port", "0"], in: example.path)
        let base = try #require(try await server.waitForURL(), "no Serving line: \(server.stderr)")
        #expect(server.stdout == "Serving site at \(base.absoluteString)\n")
        let (body, response) = try await URLSession.shared.data(from: base.appendingPathComponent("bundles/manifest.json"))
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "Cache-Control") == "public, max-age=5")
        #expect(http.value(forHTTPHeaderField: "X-Site") == "demo")
        #expect(http.value(forHTTPHeaderField: "Access-Control-Allow-Origin") == "*")
        #expect(body == (try Data(contentsOf: URL(fileURLWithPath: example.file("site/bundles/manifest.json")))))
        // The explorer, which the build did not write (no explorer: in the config), from the binary.
        #expect(!FileManager.default.fileExists(atPath: example.file("site/index.html")))
        let (page, pageResponse) = try await URLSession.shared.data(from: base)
        #expect((pageResponse as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: page, as: UTF8.self).contains("<title>BundlePress explorer</title>"))
        let (always, _) = try await URLSession.shared.data(from: base.appendingPathComponent("_bundlepress/explorer/index.html"))
        #expect(String(decoding: always, as: UTF8.self).contains(#"<meta name="bundlepress-manifest" content="../../bundles/manifest.json">"#))
        let (_, script) = try await URLSession.shared.data(from: base.appendingPathComponent("explorer.js"))
        #expect((script as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("text/javascript") == true)
        #expect(try await server.stop(SIGINT) == 0)
        #expect(server.stderr.contains("\"GET /bundles/manifest.json HTTP/1.1\" 200 "), "\(server.stderr)")
    }

    /// An extension spec `spec-latest` (clientCache 300, serverCache 60), and `extension:` to build it.
    static let spec = #"{"name":"projects/bundlepress-demo/databases/(default)/documents/specs/spec-latest","fields":{"queries":{"mapValue":{"fields":{"spec-latest":{"mapValue":{"fields":{"collection":{"stringValue":"stories"},"conditions":{"arrayValue":{"values":[{"mapValue":{"fields":{"limit":{"integerValue":"2"}}}}]}}}}}}}},"clientCache":{"stringValue":"300"},"serverCache":{"integerValue":"60"}},"createTime":"2024-01-01T00:00:00Z","updateTime":"2024-01-01T00:00:00Z"}"#

    static func addSpec(to example: ExampleCopy) throws {
        try example.write("exports/specs.ndjson", spec + "\n")
        try example.write("pipeline.yml", try example.read("pipeline.yml") + "\nextension: {collection: specs}\n")
    }

    /// A spec bundle's stable URL is served with the spec's clientCache and serverCache, as the
    /// header files say (read from the manifest when the server starts).
    @Test func servesTheStableURLsOfSpecBundlesWithTheSpecsCacheLifetimes() async throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        try Self.addSpec(to: example)
        let build = try example.run("build", "--quiet")
        #expect(build.status == 0, "\(build)")
        let server = try ServeProcess(["--port", "0"], in: example.path)
        let base = try #require(try await server.waitForURL(), "no Serving line: \(server.stderr)")
        let (body, response) = try await URLSession.shared.data(from: base.appendingPathComponent("bundles/spec-latest"))
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "Cache-Control") == "public, max-age=300, s-maxage=60, must-revalidate")
        #expect(body == (try Data(contentsOf: URL(fileURLWithPath: example.file("site/bundles/spec-latest")))))
        #expect(try example.read("site/_headers").contains("/bundles/spec-latest\n  ! Cache-Control\n  Cache-Control: public, max-age=300, s-maxage=60, must-revalidate\n"))
        #expect(try await server.stop(SIGINT) == 0)
    }

    /// With `--watch`, a rebuild that changes a spec's cache lifetimes serves its stable URL with
    /// the new ones: the site chain reads the stable URLs' rules from the new manifest.
    @Test func watchServesTheStableURLsWithTheRebuiltSpecsCacheLifetimes() async throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        try Self.addSpec(to: example)
        let server = try ServeProcess(["--watch", "--port", "0", "--quiet"], in: example.path)
        let base = try #require(try await server.waitForURL(), "no Serving line: \(server.stderr)")
        let stableURL = base.appendingPathComponent("bundles/spec-latest")
        func cacheControl() async throws -> String? {
            (try await URLSession.shared.data(from: stableURL).1 as? HTTPURLResponse)?.value(forHTTPHeaderField: "Cache-Control")
        }
        #expect(try await cacheControl() == "public, max-age=300, s-maxage=60, must-revalidate")
        let changed = Self.spec.replacingOccurrences(of: #""stringValue":"300""#, with: #""stringValue":"30""#)
            .replacingOccurrences(of: "2024-01-01T00:00:00Z\"}", with: "2024-01-02T00:00:00Z\"}")
        try Data((changed + "\n").utf8).write(to: URL(fileURLWithPath: example.file("exports/specs.ndjson")), options: .atomic)
        let deadline = ContinuousClock.now + .seconds(90)
        var served = try await cacheControl()
        while served != "public, max-age=30, s-maxage=60, must-revalidate", ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            served = try await cacheControl()
        }
        #expect(served == "public, max-age=30, s-maxage=60, must-revalidate", "\(server.stderr)")
        #expect(try await server.stop(SIGINT) == 0)
    }

    /// A server's event stream read on a socket of its own, as an open page's `EventSource` does.
    final class EventStreamListener: @unchecked Sendable {
        private let descriptor: Int32
        private let lock = NSLock()
        private var text = ""

        init(port: Int) throws {
            #if canImport(Glibc)
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
            descriptor = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard descriptor >= 0, connected == 0 else { throw POSIXError(.ECONNREFUSED) }
            let request = Array("GET /_bundlepress/events HTTP/1.1\r\nHost: test\r\n\r\n".utf8)
            _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
            Thread { [self] in
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = recv(descriptor, &buffer, buffer.count, 0)
                    guard count > 0 else { return }
                    lock.withLock { text += String(decoding: buffer[..<count], as: UTF8.self) }
                }
            }.start()
        }

        var received: String { lock.withLock { text } }

        /// Waits (up to `deadline`) until `expected` has arrived.
        func wait(for expected: String, until deadline: ContinuousClock.Instant) async throws -> Bool {
            while !received.contains(expected) {
                guard ContinuousClock.now < deadline else { return false }
                try await Task.sleep(for: .milliseconds(50))
            }
            return true
        }

        func close() {
            shutdown(descriptor, Int32(SHUT_RDWR))
            #if canImport(Glibc)
            _ = Glibc.close(descriptor)
            #else
            _ = Darwin.close(descriptor)
            #endif
        }
    }

    /// `serve --watch`: the first build before the Serving line; an input changed on disk, then
    /// the config, each published and served within seconds with an event to open pages; a new
    /// header policy applied; a broken config reported with its place while the last good site
    /// stays served.
    @Test func watchRebuildsOnEveryChangeTellsPagesAndKeepsTheSiteWhenTheConfigBreaks() async throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let server = try ServeProcess(["--watch", "--port", "0", "--quiet"], in: example.path)
        let base = try #require(try await server.waitForURL(), "no Serving line: \(server.stderr)")
        let manifestURL = base.appendingPathComponent("bundles/manifest.json")
        func frontPage() async throws -> String? {
            let (body, _) = try await URLSession.shared.data(from: manifestURL)
            let manifest = try JSONSerialization.jsonObject(with: body) as? [String: Any]
            let bundles = manifest?["bundles"] as? [[String: Any]] ?? []
            return bundles.first { $0["id"] as? String == "front-page" }?["url"] as? String
        }
        let original = try #require(try await frontPage())
        let deadline = ContinuousClock.now + .seconds(90)

        // An input changed on disk: site/navigation, which the front page carries.
        let listener = try EventStreamListener(port: try #require(base.port))
        defer { listener.close() }
        #expect(try await listener.wait(for: "retry: 1000\n\n", until: deadline), "\(listener.received)")
        let navigation = try example.read("exports/site/config.ndjson")
        try Data(navigation.replacingOccurrences(of: #""stringValue":"Monde""#, with: #""stringValue":"Le monde""#).utf8)
            .write(to: URL(fileURLWithPath: example.file("exports/site/config.ndjson")), options: .atomic)
        #expect(try await listener.wait(for: "event: rebuilt\ndata: Built 8 bundles (0 new, 1 changed", until: deadline), "\(listener.received)\n\(server.stderr)")
        let before = try #require(try await frontPage())
        #expect(before != original)

        let config = try example.read("pipeline.yml")
        try Data(config.replacingOccurrences(of: "limit: 20", with: "limit: 3").utf8).write(to: URL(fileURLWithPath: example.file("pipeline.yml")), options: .atomic)
        var after = before
        while after == before, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            after = try await frontPage() ?? before
        }
        #expect(after != before, "the rebuilt front page was not served: \(server.stderr)")
        let (_, bundleResponse) = try await URLSession.shared.data(from: base.appendingPathComponent(after))
        #expect((bundleResponse as? HTTPURLResponse)?.statusCode == 200)
        #expect(server.stdout.contains("(changed)"), "\(server.stdout)")

        // A new header policy applies without a restart.
        let withHeaders = config + "\nheaders:\n  - source: /bundles/manifest.json\n    headers: { X-Site: demo }\n"
        try Data(withHeaders.utf8).write(to: URL(fileURLWithPath: example.file("pipeline.yml")), options: .atomic)
        var siteField: String?
        while siteField == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            siteField = (try await URLSession.shared.data(from: manifestURL).1 as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Site")
        }
        #expect(siteField == "demo", "\(server.stderr)")

        let (served, _) = try await URLSession.shared.data(from: manifestURL)
        try Data(config.replacingOccurrences(of: "limit: 20", with: "limit: -3").utf8).write(to: URL(fileURLWithPath: example.file("pipeline.yml")), options: .atomic)
        while !server.stderr.contains("still serving the last good site"), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        let reported = server.stderr.split(separator: "\n").first { $0.hasPrefix("error: pipeline.yml:") }?.split(separator: ":") ?? []
        #expect(reported.count > 4 && Int(reported[2]) != nil && Int(reported[3]) != nil, "no file:line:column in \(server.stderr)")
        let (stillServed, _) = try await URLSession.shared.data(from: manifestURL)
        #expect(stillServed == served)
        #expect(try await server.stop(SIGINT) == 0)
    }

    /// A site build from a fresh checkout (no output yet) takes what the deployed site publishes
    /// as its previous state: with `--previous URL` it publishes the very bundles a build that
    /// kept its output does, and without anything it dates them by the wall clock and says so.
    @Test func aFreshCheckoutTakesThePreviousStateFromTheDeployedSite() async throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        #expect(try example.run("build", "--quiet").status == 0)
        let server = try ServeProcess(["--port", "0", "--quiet"], in: example.path)
        let base = try #require(try await server.waitForURL(), "no Serving line: \(server.stderr)")
        // The newest story is deleted from the export.
        let stories = try example.read("exports/stories.ndjson").split(separator: "\n")
        let newest = try #require(stories.max { $0.split(separator: "publishedAt").last! < $1.split(separator: "publishedAt").last! })
        try example.write("exports/stories.ndjson", stories.filter { $0 != newest }.joined(separator: "\n") + "\n")

        let fresh = try example.run("build", "--output", "fresh", "--previous", base.absoluteString, "--json")
        #expect(fresh.status == 0, "\(fresh)")
        #expect(fresh.stderr == "", "\(fresh)")
        #expect(try await server.stop() == 0)
        let kept = try example.run("build", "--json")
        #expect(kept.status == 0, "\(kept)")
        let manifest = { (site: String) throws -> Data in try Data(contentsOf: URL(fileURLWithPath: example.file("\(site)/bundles/manifest.json"))) }
        #expect(try manifest("fresh") == (try manifest("site")))
        #expect(fresh.stdout.contains("\"previousState\" : \"\(base.absoluteString)\""), "\(fresh)")
        #expect(try example.run("verify", "fresh").status == 0)

        // Nothing known: the wall clock, and a warning naming the setting.
        let unknown = try example.run("build", "--output", "unknown", "--config", "pipeline.yml", "--previous", "none", "--dry-run")
        #expect(unknown.status == 0 && unknown.stderr == "", "\(unknown)")
        try example.write("pipeline.yml", try example.read("pipeline.yml").replacingOccurrences(of: "previous: none\n", with: ""))
        let guessed = try example.run("build", "--output", "unknown")
        #expect(guessed.status == 0, "\(guessed)")
        #expect(guessed.stderr.contains("earlier publishes are unknown") && guessed.stderr.contains("Set previous: (or --previous)"), "\(guessed)")
    }

    @Test func exitStatuses() async throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        // No site yet: 66.
        let missing = try example.run("serve", "--port", "0")
        #expect(missing.status == 66, "\(missing)")
        #expect(missing.stderr.contains("does not exist; run bundlepress build first"))
        // A bad headers: rule: 78 with the position.
        try FileManager.default.createDirectory(atPath: example.file("site"), withIntermediateDirectories: true)
        try example.write("bad.yml", try example.read("pipeline.yml") + "\nheaders:\n  - source: /a\n    headers: { Content-Length: \"1\" }\n")
        let invalid = try example.run("serve", "--config", "bad.yml", "--port", "0")
        #expect(invalid.status == 78, "\(invalid)")
        #expect(invalid.stderr.contains("bad.yml:"), "\(invalid)")
        #expect(invalid.stderr.contains("Content-Length cannot be set by a rule"), "\(invalid)")
        // The port taken by another server: 69.
        let first = try ServeProcess(["--port", "0", "--dir", "site", "--quiet"], in: example.path)
        let url = try #require(try await first.waitForURL())
        let taken = try example.run("serve", "--dir", "site", "--port", String(try #require(url.port)))
        #expect(taken.status == 69, "\(taken)")
        #expect(taken.stderr.contains("cannot listen on 127.0.0.1:"), "\(taken)")
        #expect(try await first.stop() == 0)
    }

    /// `--upstream`: the edge in front of a real origin, here another `bundlepress serve
    /// --no-edge` process: a miss, then a hit the origin never sees, `Via` added, and a 502 with
    /// a log line once the origin is gone.
    @Test func upstreamPutsTheEdgeInFrontOfAnotherOrigin() async throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        #expect(try example.run("build", "--quiet").status == 0)
        let origin = try ServeProcess(["--port", "0", "--no-edge"], in: example.path)
        let originURL = try #require(try await origin.waitForURL(), "no Serving line: \(origin.stderr)")
        let upstream = "http://127.0.0.1:\(try #require(originURL.port))"
        let proxy = try ServeProcess(["--upstream", upstream, "--port", "0", "--quiet"], in: example.path)
        let base = try #require(try await proxy.waitForURL(), "no Serving line: \(proxy.stderr)")
        #expect(proxy.stdout == "Serving \(upstream) at \(base.absoluteString)\n")
        let manifest = base.appendingPathComponent("bundles/manifest.json")
        var labels: [String?] = []
        for _ in 0..<2 {
            let (body, response) = try await URLSession.shared.data(from: manifest)
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 200)
            #expect(http.value(forHTTPHeaderField: "Via") == "1.1 bundlepress")
            #expect(body == (try Data(contentsOf: URL(fileURLWithPath: example.file("site/bundles/manifest.json")))))
            labels.append(http.value(forHTTPHeaderField: "X-Cache"))
        }
        #expect(labels == ["MISS", "HIT"])
        #expect(origin.stderr.components(separatedBy: "GET /bundles/manifest.json").count == 2, "\(origin.stderr)")
        #expect(try await origin.stop() == 0)
        let (_, gone) = try await URLSession.shared.data(from: base.appendingPathComponent("index.html"))
        #expect((gone as? HTTPURLResponse)?.statusCode == 502)
        #expect(try await proxy.stop() == 0)
        #expect(proxy.stderr.contains("upstream GET \(upstream)/index.html failed: "), "\(proxy.stderr)")
    }

    @Test func upstreamUsageErrors() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let scheme = try example.run("serve", "--upstream", "ftp://127.0.0.1:21")
        #expect(scheme.status == 64, "\(scheme)")
        #expect(scheme.stderr.contains("invalid upstream address ftp://127.0.0.1:21: the scheme must be http or https, found ftp"), "\(scheme)")
        let withDir = try example.run("serve", "--upstream", "http://127.0.0.1:5000", "--dir", "site")
        #expect(withDir.status == 64, "\(withDir)")
        #expect(withDir.stderr.contains("--upstream serves another origin: it takes neither --config nor --dir"), "\(withDir)")
    }

    /// Under an open-file limit too low for the connection cap (here 128: a quarter is kept for
    /// the server's own descriptors), serve says how many connections it holds, and the one over
    /// that gets 503 at once instead of waiting in the listen queue.
    @Test func aLowOpenFileLimitLowersTheConnectionCapAndSaysSo() async throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        #expect(try example.run("build", "--quiet").status == 0)
        let server = try ServeProcess(["--port", "0", "--quiet"], in: example.path, openFileLimit: 128)
        let base = try #require(try await server.waitForURL(), "no Serving line: \(server.stderr)")
        #expect(server.stderr.contains("warning: the open-file limit (ulimit -n) holds 96 connections at once, not 4096;"), "\(server.stderr)")
        let port = try #require(base.port)
        var held: [RawConnection] = []
        for _ in 0..<96 {
            held.append(try RawConnection(port: port))
            #expect(try held.last?.firstLine(after: "GET /bundles/manifest.json HTTP/1.1\r\nHost: t\r\n\r\n") == "HTTP/1.1 200 OK")
        }
        let extra = try RawConnection(port: port)
        #expect(try extra.firstLine(after: "GET / HTTP/1.1\r\nHost: t\r\n\r\n") == "HTTP/1.1 503 Service Unavailable")
        held.removeAll()
        #expect(try await server.stop() == 0)
    }
}

/// A blocking TCP connection to 127.0.0.1, closed when released; reads time out after 10 s.
private final class RawConnection {
    private let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Self.lastError() }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let error = Self.lastError()
            close(descriptor)
            throw error
        }
    }

    private static func lastError() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }

    deinit {
        close(descriptor)
    }

    /// Sends `request` and returns the status line of what comes back (empty when nothing does).
    func firstLine(after request: String) throws -> String {
        let bytes = Array(request.utf8)
        guard send(descriptor, bytes, bytes.count, 0) == bytes.count else { throw Self.lastError() }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        while !received.contains(UInt8(ascii: "\n")) {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            guard count > 0 else { break }
            received += chunk[..<count]
        }
        return String(decoding: received.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    }
}
