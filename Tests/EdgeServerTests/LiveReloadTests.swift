@testable import EdgeServer
import Foundation
import HTTPTypes
import NIOCore
import Testing

/// `serve --watch`'s layer over real sockets: the event stream (server-sent events), what a page
/// that connects or reconnects is told, the field that names the stream, and shutdown.
@Suite(.timeLimit(.minutes(1))) struct LiveReloadTests {
    /// A site with one file, behind the live-reload layer.
    static func withLiveReload(_ body: (RunningServer, SiteEventStream) async throws -> Void) async throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.write("index.html", "<p>hello</p>")
        let events = SiteEventStream(run: "test")
        let responder = LiveReloadResponder(wrapping: SiteOrigin(directory: site.path), events: events)
        try await withServer(responder: responder) { server in try await body(server, events) }
    }

    @Test func pagesHearEveryEventAsItIsSent() async throws {
        try await Self.withLiveReload { server, events in
            try await TestConnection.with(port: server.port) { connection in
                try await connection.request("GET", "/_bundlepress/events")
                let head = await connection.untilReceived("retry: 1000\n\n")
                #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"))
                #expect(head.contains("Content-Type: text/event-stream; charset=utf-8\r\n"))
                #expect(head.contains("Cache-Control: no-store\r\n"))
                #expect(head.contains("Connection: close\r\n"))
                #expect(!head.contains("Content-Length"))
                while events.listeners == 0 { try await Task.sleep(for: .milliseconds(10)) }
                events.send(.rebuilt(summary: "Built 2 bundles"))
                #expect(await connection.untilReceived("\n\n").hasSuffix("id: test-1\nevent: rebuilt\ndata: Built 2 bundles\n\n"))
                events.send(.buildFailed(message: "pipeline.yml:3:8: expected a number\nnothing was published"))
                let failed = await connection.untilReceived("published\n\n")
                #expect(failed.hasSuffix("id: test-2\nevent: build-failed\ndata: pipeline.yml:3:8: expected a number\ndata: nothing was published\n\n"))
            }
            // The listener is dropped once its connection closes.
            let deadline = ContinuousClock.now + .seconds(20)
            while events.listeners > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(events.listeners == 0)
        }
    }

    @Test func aPageIsToldWhatItMissed() async throws {
        try await Self.withLiveReload { server, events in
            events.send(.rebuilt(summary: "first"))
            // A new page has the latest site: after a successful build nothing is replayed, and
            // the next event is the first it gets.
            let fresh = try await Self.events(port: server.port, lastEventID: nil, thenSending: .rebuilt(summary: "second"), through: events)
            #expect(fresh == ["retry: 1000", "id: test-2\nevent: rebuilt\ndata: second"])
            // A page that saw the latest event has nothing to catch up on either…
            let upToDate = try await Self.events(port: server.port, lastEventID: "test-2", thenSending: .rebuilt(summary: "third"), through: events)
            #expect(upToDate == ["retry: 1000", "id: test-3\nevent: rebuilt\ndata: third"])
            // …one that saw an earlier one (or an earlier server run's) gets the latest at once.
            let behind = try await Self.events(port: server.port, lastEventID: "earlier-7", thenSending: .rebuilt(summary: "fourth"), through: events)
            #expect(behind == ["retry: 1000", "id: test-3\nevent: rebuilt\ndata: third", "id: test-4\nevent: rebuilt\ndata: fourth"])
            // While the build is failing, every page that connects shows why.
            events.send(.buildFailed(message: "broken"))
            let failing = try await Self.events(port: server.port, lastEventID: nil, thenSending: .buildFailed(message: "still broken"), through: events)
            #expect(failing == ["retry: 1000", "id: test-5\nevent: build-failed\ndata: broken", "id: test-6\nevent: build-failed\ndata: still broken"])
        }
    }

    /// The blocks (separated by blank lines) a page connecting with `lastEventID` receives up to
    /// and including `next`, which the test sends once the page listens.
    static func events(port: Int, lastEventID: String?, thenSending next: SiteEvent, through events: SiteEventStream) async throws -> [String] {
        try await TestConnection.with(port: port) { connection in
            try await connection.request("GET", "/_bundlepress/events", lastEventID.map { ["Last-Event-ID: \($0)"] } ?? [])
            var received = await connection.untilReceived("retry: 1000\n\n")
            while events.listeners == 0 { try await Task.sleep(for: .milliseconds(10)) }
            events.send(next)
            received += await connection.untilReceived("data: \(next.text)\n\n")
            return Self.blocks(received)
        }
    }

    /// The event stream's blocks after the response head.
    static func blocks(_ received: String) -> [String] {
        guard let body = received.range(of: "\r\n\r\n") else { return [] }
        return received[body.upperBound...].components(separatedBy: "\n\n").filter { !$0.isEmpty }
    }

    @Test func everyOtherResponseNamesTheStreamAndHeadGetsNoStream() async throws {
        try await Self.withLiveReload { server, events in
            try await TestConnection.with(port: server.port) { connection in
                let page = try await connection.exchange("GET", "/")
                #expect(page.status == 200)
                #expect(page["BundlePress-Live-Reload"] == "/_bundlepress/events")
                let missing = try await connection.exchange("GET", "/nothing-here")
                #expect(missing.status == 404)
                #expect(missing["BundlePress-Live-Reload"] == "/_bundlepress/events")
                let post = try await connection.exchange("POST", "/_bundlepress/events")
                #expect(post.status == 405)
                #expect(post["Allow"] == "GET, HEAD")
            }
            let head = try await TestConnection.with(port: server.port) { connection in
                try await connection.request("HEAD", "/_bundlepress/events")
                return await connection.untilClosed()
            }
            #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n") && head.hasSuffix("\r\n\r\n"), "\(head)")
            #expect(events.listeners == 0)
        }
    }

    @Test func beforeAnySiteIsPublishedAFailedBuildIsThePage() async throws {
        let site = try TestSite()
        defer { site.remove() }
        let events = SiteEventStream(run: "test")
        let responder = LiveReloadResponder(wrapping: SiteOrigin(directory: site.path), events: events)
        try await withServer(responder: responder) { server in
            try await TestConnection.with(port: server.port) { connection in
                #expect(try await connection.exchange("GET", "/").status == 404)
                events.send(.buildFailed(message: "pipeline.yml:3:8: expected <a number>"))
                let page = try await connection.exchange("GET", "/")
                #expect(page.status == 503)
                #expect(page["Content-Type"] == "text/html; charset=utf-8")
                #expect(page["Cache-Control"] == "no-store")
                #expect(page.text.contains("<pre id=\"build-error\" role=\"alert\">pipeline.yml:3:8: expected &lt;a number&gt;</pre>"), "\(page.text)")
                #expect(page.text.contains("new EventSource('/_bundlepress/events').addEventListener('rebuilt', () => location.reload())"))
                // Other paths stay 404s.
                #expect(try await connection.exchange("GET", "/bundles/manifest.json").status == 404)
                // Once a site is published it is served, failing build or not (its page shows the error).
                try site.write("index.html", "<p>hello</p>")
                #expect(try await connection.exchange("GET", "/").status == 200)
                try FileManager.default.removeItem(atPath: site.file("index.html"))
                events.send(.rebuilt(summary: "Built 1 bundle"))
                #expect(try await connection.exchange("GET", "/").status == 404)
            }
        }
    }

    @Test func shutdownEndsTheStreams() async throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.write("index.html", "<p>hello</p>")
        let events = SiteEventStream(run: "test")
        let server = try await EdgeServer.start(
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0, accessLog: nil),
            responder: LiveReloadResponder(wrapping: SiteOrigin(directory: site.path), events: events))
        let running = Task { await server.run() }
        let (opening, rest) = try await TestConnection.with(port: server.port) { connection in
            try await connection.request("GET", "/_bundlepress/events")
            let opening = await connection.untilReceived("retry: 1000\n\n")
            server.shutdown()
            return (opening, await connection.untilClosed())
        }
        // The server stops (a stream left open would hold it: the suite's time limit says so).
        await running.value
        #expect(opening.hasSuffix("retry: 1000\n\n"))
        #expect(rest == "")
    }
}
