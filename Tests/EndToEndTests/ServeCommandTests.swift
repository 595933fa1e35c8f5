import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `bundlepress serve` as a user runs it: the built binary on a copy of the example.
@Suite("bundlepress serve", .timeLimit(.minutes(1)))
struct ServeCommandTests {
    /// A running `bundlepress serve`, its output going to files.
    final class ServeProcess {
        let process = Process()
        let stdoutURL: URL
        let stderrURL: URL

        init(_ arguments: [String], in directory: String) throws {
            let binary = try bundlepressBinary.get()
            let outputs = URL(fileURLWithPath: directory).appendingPathComponent("serve-output-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
            stdoutURL = outputs.appendingPathComponent("stdout")
            stderrURL = outputs.appendingPathComponent("stderr")
            try Data().write(to: stdoutURL)
            try Data().write(to: stderrURL)
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["serve"] + arguments
            process.currentDirectoryURL = URL(fileURLWithPath: directory)
            process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
            process.standardError = try FileHandle(forWritingTo: stderrURL)
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }

        var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

        /// The URL from the `Serving … at URL` line, once printed (nil if the process exits first).
        func waitForURL() async throws -> URL? {
            for _ in 0..<400 {
                if let line = stdout.split(separator: "\n").first, line.hasPrefix("Serving "), let url = line.split(separator: " ").last {
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
        #expect(try await server.stop(SIGINT) == 0)
        #expect(server.stderr.contains("\"GET /bundles/manifest.json HTTP/1.1\" 200 "), "\(server.stderr)")
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
}
