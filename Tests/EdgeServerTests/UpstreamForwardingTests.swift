import EdgeServer
import HTTPTypes
import Testing

/// `serve --upstream` forwarding, over real sockets (see ``ProxyFixture``): methods, bodies and
/// fields end to end (RFC 9110 §7.6), and an upstream that fails mapped to 502 or 504.
@Suite struct UpstreamForwardingTests {
    @Test func forwardsTheMethodTheBodyAndTheFieldsBothWays() async throws {
        try await ProxyFixture.with(cacheControl: "max-age=60") { proxy in
            await proxy.origin.set(statusForOtherMethods: .created)
            await proxy.origin.set(extraFields: [HTTPField.Name("X-Origin")!: "yes", .via: "1.1 origin-proxy"])
            let response = try await proxy.exchange("PUT", "/config/7?x=1", ["Test-ID: 42", "Authorization: Bearer t"], body: "{\"a\":1}")
            #expect(response.status == 201)
            #expect(response["X-Origin"] == "yes")
            #expect(response["Via"] == "1.1 origin-proxy, 1.1 bundlepress")
            #expect(response["Cache-Status"] == "edge; fwd=bypass; detail=method")
            let forwarded = try #require(await proxy.origin.requests.first)
            #expect(forwarded.method == .put)
            #expect(forwarded.path == "/config/7")
            #expect(forwarded.query == "x=1")
            #expect(String(buffer: forwarded.body) == "{\"a\":1}")
            #expect(forwarded.headerFields[HTTPField.Name("Test-ID")!] == "42")
            #expect(forwarded.headerFields[.authorization] == "Bearer t")
            #expect(forwarded.headerFields[.via] == "1.1 bundlepress")
            #expect(forwarded.headerFields[HTTPField.Name("Host")!] == "127.0.0.1:\(proxy.upstreamPort)")
            #expect(forwarded.headerFields[HTTPField.Name("X-Forwarded-Host")!] == "test")
        }
    }

    @Test func methodsNIOWouldRespellGoUpstreamAsSent() async throws {
        try await ProxyFixture.with(cacheControl: nil) { proxy in
            _ = try await proxy.exchange("M-SEARCH", "/a")
            #expect(await proxy.origin.requests.first?.method.rawValue == "M-SEARCH")
        }
    }

    /// RFC 9110 §7.6.1: `Connection`, the fields it names and the other hop-by-hop fields stop
    /// at the edge, in both directions.
    @Test func hopByHopFieldsAreNotForwarded() async throws {
        try await ProxyFixture.with(cacheControl: "max-age=60") { proxy in
            await proxy.origin.set(extraFields: [
                .connection: "X-Hop-Response", HTTPField.Name("X-Hop-Response")!: "1", HTTPField.Name("Keep-Alive")!: "timeout=5",
                .upgrade: "websocket", HTTPField.Name("X-End-To-End")!: "kept",
            ])
            let response = try await proxy.exchange(
                "GET", "/a", ["Connection: keep-alive, X-Hop-Request", "X-Hop-Request: 1", "Keep-Alive: 300", "TE: trailers", "Proxy-Connection: keep-alive"])
            #expect(response.status == 200)
            for name in ["Connection", "X-Hop-Response", "Keep-Alive", "Upgrade"] {
                #expect(response[name] == nil, "\(name)")
            }
            #expect(response["X-End-To-End"] == "kept")
            let forwarded = try #require(await proxy.origin.requests.first).headerFields
            for name in ["X-Hop-Request", "Keep-Alive", "TE", "Proxy-Connection", "Connection"] {
                #expect(forwarded[HTTPField.Name(name)!] == nil, "\(name)")
            }
        }
    }

    @Test func anUnreachableUpstreamIs502WithALogLine() async throws {
        try await ProxyFixture.withUnreachableUpstream { proxy in
            let response = try await proxy.exchange("GET", "/bundles/manifest.json")
            #expect(response.status == 502)
            #expect(response["Cache-Status"] == "edge; fwd=uri-miss; detail=origin-unavailable")
            let line = try #require(proxy.failures.recorded.first)
            #expect(line.hasPrefix("upstream GET http://127.0.0.1:\(proxy.upstreamPort)/bundles/manifest.json failed: "))
            #expect(line.hasSuffix("(answered 502)"))
            #expect(try await proxy.exchange("POST", "/form", body: "a=1").status == 502)
        }
    }

    @Test func anUpstreamThatDoesNotAnswerInTimeIs504() async throws {
        try await ProxyFixture.with(cacheControl: "max-age=60", readTimeout: .milliseconds(200)) { proxy in
            await proxy.origin.close()
            let response = try await proxy.exchange("GET", "/slow")
            #expect(response.status == 504)
            #expect(proxy.failures.recorded.first?.hasSuffix("(answered 504)") == true)
            await proxy.origin.open()
        }
    }

    /// An upstream's own error status is its answer, not a gateway failure.
    @Test func anUpstreamErrorStatusIsForwarded() async throws {
        try await ProxyFixture.with(cacheControl: "no-store") { proxy in
            await proxy.origin.set(status: .internalServerError)
            let response = try await proxy.exchange("GET", "/a")
            #expect(response.status == 500)
            #expect(response.text == "v1 /a")
        }
    }

    /// A redirect is returned to the client, never followed by the edge.
    @Test func redirectsAreReturnedNotFollowed() async throws {
        try await ProxyFixture.with(cacheControl: "no-store") { proxy in
            await proxy.origin.set(status: .found)
            await proxy.origin.set(extraFields: [.location: "/elsewhere"])
            let response = try await proxy.exchange("GET", "/a")
            #expect(response.status == 302)
            #expect(response["Location"] == "/elsewhere")
            #expect(await proxy.upstreamRequests == 1)
        }
    }
}
