@testable import EdgeServer
import Foundation
import Gzip
import NIOCore
import SystemSupport
import Testing

/// Files of ``SiteOrigin/fileBodyThreshold`` bytes or more are sent from an open file with
/// `sendfile`: whole, in ranges, from many connections at once, and never short when the file
/// changes on disk.
@Suite(.timeLimit(.minutes(1)))
struct FileBodyTests {
    static let path = "/bundles/large.bundle"

    /// Bytes gzip cannot shrink below the threshold, so both representations go by file.
    static func incompressible(count: Int = SiteOrigin.fileBodyThreshold * 3 + 17, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    static func chain(_ site: TestSite, edge: Bool, clock: EdgeClock = .system) -> any Responder {
        ResponderChain.serve(origin: SiteOrigin(directory: site.path), edge: edge ? EdgeConfiguration(clock: clock) : nil).responder
    }

    @Test func onlyFilesFromTheThresholdUpAreKeptOpen() async throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.write("at", Self.incompressible(count: SiteOrigin.fileBodyThreshold, seed: 6))
        try site.write("below", Self.incompressible(count: SiteOrigin.fileBodyThreshold - 1, seed: 7))
        let origin = SiteOrigin(directory: site.path)
        let at = await origin.respond(to: ServerRequest(method: .get, path: "/at", headerFields: [:]))
        let below = await origin.respond(to: ServerRequest(method: .get, path: "/below", headerFields: [:]))
        #expect(at.body.file != nil && at.body.buffer == nil)
        #expect(below.body.file == nil && below.body.readableBytes == SiteOrigin.fileBodyThreshold - 1)
    }

    @Test(arguments: [false, true])
    func largeFilesAndTheirRangesArriveWhole(edge: Bool) async throws {
        let site = try TestSite()
        defer { site.remove() }
        let bytes = Self.incompressible(seed: 1)
        try site.writeWithSidecar(String(Self.path.dropFirst()), bytes)
        let gzip = try GzipCompressor.compress(bytes)
        #expect(gzip.count >= SiteOrigin.fileBodyThreshold)
        try await withServer(responder: Self.chain(site, edge: edge)) { server in
            try await TestConnection.with(port: server.port) { connection in
                for _ in 0..<2 {
                    let identity = try await connection.exchange("GET", Self.path)
                    #expect(identity.status == 200)
                    #expect(identity["Content-Length"] == String(bytes.count))
                    #expect(identity.body == bytes)
                    let compressed = try await connection.exchange("GET", Self.path, ["Accept-Encoding: gzip"])
                    #expect(compressed["Content-Encoding"] == "gzip")
                    #expect(compressed.body == gzip)
                }
                let range = try await connection.exchange("GET", Self.path, ["Range: bytes=100000-100099"])
                #expect(range.status == 206)
                #expect(range["Content-Range"] == "bytes 100000-100099/\(bytes.count)")
                #expect(range.body == Array(bytes[100_000..<100_100]))
                let head = try await connection.exchange("HEAD", Self.path)
                #expect(head["Content-Length"] == String(bytes.count))
                #expect(head.body.isEmpty)
                // The connection is still in step after all of the above.
                #expect(try await connection.exchange("GET", Self.path, ["Range: bytes=-5"]).body == Array(bytes.suffix(5)))
            }
        }
    }

    @Test func manyConnectionsSendFromTheSameOpenFile() async throws {
        let site = try TestSite()
        defer { site.remove() }
        let bytes = Self.incompressible(seed: 2)
        try site.write(String(Self.path.dropFirst()), bytes)
        try await withServer(responder: Self.chain(site, edge: true)) { server in
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        try await TestConnection.with(port: server.port) { connection in
                            var allWhole = true
                            for _ in 0..<8 {
                                allWhole = try await connection.exchange("GET", Self.path).body == bytes && allWhole
                            }
                            return allWhole
                        }
                    }
                }
                for try await allWhole in group {
                    #expect(allWhole)
                }
            }
        }
    }

    @Test(arguments: [false, true])
    func aFileRewrittenInPlaceIsServedAnew(edge: Bool) async throws {
        let site = try TestSite()
        defer { site.remove() }
        let old = Self.incompressible(seed: 3)
        let new = Self.incompressible(count: SiteOrigin.fileBodyThreshold + 1, seed: 4)
        try site.write(String(Self.path.dropFirst()), old)
        let clock = ManualClock()
        try await withServer(responder: Self.chain(site, edge: edge, clock: clock.edgeClock)) { server in
            try await TestConnection.with(port: server.port) { connection in
                let first = try await connection.exchange("GET", Self.path)
                #expect(first.body == old)
                #expect(first["X-Cache"] == (edge ? "MISS" : nil))
                #expect(try await connection.exchange("GET", Self.path)["X-Cache"] == (edge ? "HIT" : nil))
                // Rewritten in place (same inode, shorter): the origin notices and reads it again.
                let handle = try #require(FileHandle(forWritingAtPath: site.file(String(Self.path.dropFirst()))))
                try handle.truncate(atOffset: 0)
                try handle.write(contentsOf: Data(new))
                try handle.close()
                if edge {
                    // The edge, which holds the same open file, looks at it at most once a
                    // second; until then the transport refuses to send it short.
                    let refused = try await connection.exchange("GET", Self.path)
                    #expect(refused.status == 503 && refused["Retry-After"] == "1", "\(refused)")
                    clock.advance(StoredResponse.fileCheckInterval)
                }
                // Then the edge drops its copy and fetches anew.
                let second = try await connection.exchange("GET", Self.path)
                #expect(second.status == 200)
                #expect(second.body == new)
                #expect(second["Cache-Status"]?.contains("fwd=miss") ?? !edge, "\(second)")
            }
        }
    }

    /// Sends a file body opened before the file was rewritten in place.
    struct StaleFileResponder: Responder {
        let file: OpenFile

        func respond(to request: ServerRequest) async -> ServerResponse {
            ServerResponse(status: .ok, headerFields: [:], body: ResponseBody(file: file, count: Int(file.stamp.size)))
        }
    }

    @Test func aFileChangedSinceItWasOpenedIsRefusedNotSentShort() async throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.write("f", Self.incompressible(seed: 5))
        let descriptor = open(site.file("f"), O_RDONLY)
        try #require(descriptor >= 0)
        var status = stat()
        fstat(descriptor, &status)
        let file = OpenFile(descriptor: descriptor, stamp: FileStamp(status))
        try site.write("f", "short")  // same inode: Data.write truncates and rewrites
        #expect(!file.isUnchanged)
        try await withServer(responder: StaleFileResponder(file: file)) { server in
            try await TestConnection.with(port: server.port) { connection in
                let response = try await connection.exchange("GET", "/f")
                #expect(response.status == 503)
                #expect(response["Retry-After"] == "1")
                #expect(try await connection.exchange("GET", "/f").status == 503)
            }
        }
    }
}
