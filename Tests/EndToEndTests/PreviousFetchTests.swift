import Foundation
import Gzip
import Testing

/// `build --previous URL` against a deployed site that misbehaves: whatever it sends, the build
/// takes a bounded amount of memory and time, fails with 69 naming the URL and the limit, and
/// publishes nothing.
@Suite("build --previous URL: limits", .timeLimit(.minutes(5)))
struct PreviousFetchTests {
    /// Runs `build --output fresh --previous <origin> arguments…` in a copy of the example and
    /// checks that it failed with 69, naming `file` of the origin and `limit`, and published nothing.
    private func expectRefused(
        by origin: HostileOrigin, _ file: String, limit: String, _ arguments: [String] = [], in example: ExampleCopy,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try runBundlepress(["build", "--output", "fresh", "--previous", origin.url] + arguments, in: example.path)
        #expect(result.status == 69, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(origin.url + file) && result.stderr.contains(limit), "\(result)", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: example.file("fresh/bundles/manifest.json")), sourceLocation: sourceLocation)
    }

    /// A 8 KiB gzip body that expands to 8 MiB is stopped at the manifest's 4 MiB, as decoded.
    @Test func aManifestExpandingPastItsCapIsRefused() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let bomb = Data(try GzipCompressor.compress([UInt8](repeating: UInt8(ascii: " "), count: 8 << 20)))
        let origin = try HostileOrigin { _, write in
            _ = write(.responseHead(["Content-Type: application/json", "Content-Encoding: gzip", "Content-Length: \(bomb.count)"]) + bomb)
        }
        defer { origin.stop() }
        try expectRefused(by: origin, "bundles/manifest.json", limit: "\(4 << 20) bytes", in: example)
    }

    /// A bundle larger than its budget (which a build under `mode: fail` could not have
    /// published) is refused as it arrives.
    @Test func aBundleOverItsBudgetIsRefused() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        #expect(try example.run("build", "--quiet").status == 0)
        let site = try ExampleCopy.files(under: example.file("site"))
        let origin = try HostileOrigin { target, write in
            guard let body = site[String(target.dropFirst())] else {
                _ = write(.responseHead(["Content-Length: 0"], status: "404 Not Found"))
                return
            }
            _ = write(.responseHead(["Content-Length: \(body.count)"]) + body)
        }
        defer { origin.stop() }
        try example.write("pipeline.yml", try example.read("pipeline.yml").replacingOccurrences(of: "max_bundle_bytes: 1MB", with: "max_bundle_bytes: 1kB"))
        let frontPage = try #require(try example.manifestBundles().first { $0["id"] as? String == "front-page" }?["url"] as? String)
        try expectRefused(by: origin, frontPage, limit: "1000 bytes", in: example)
    }

    /// A server that sends a byte every half second never trips a read timeout; the deadline
    /// on the whole fetch stops it.
    @Test func aServerSendingByteByByteMeetsTheDeadline() throws {
        let example = try ExampleCopy()
        defer { example.remove() }
        let origin = try HostileOrigin { _, write in
            guard write(.responseHead(["Content-Type: application/json", "Content-Length: 1000"])) else { return }
            for _ in 0..<60 {
                Thread.sleep(forTimeInterval: 0.5)
                guard write(Data(" ".utf8)) else { return }
            }
        }
        defer { origin.stop() }
        let started = ContinuousClock.now
        try expectRefused(by: origin, "bundles/manifest.json", limit: "--previous-timeout", ["--previous-timeout", "2"], in: example)
        #expect(ContinuousClock.now - started < .seconds(20))
    }
}
