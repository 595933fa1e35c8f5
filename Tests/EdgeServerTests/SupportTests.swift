import HTTPTypes
import NIOCore
import Testing
@testable import EdgeServer

@Suite struct SupportTests {
    @Test func httpDates() {
        #expect(HTTPDate(secondsSince1970: 784_111_777).imfFixdate == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate(secondsSince1970: 0).imfFixdate == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate(secondsSince1970: 784_111_777).commonLogFormat == "06/Nov/1994:08:49:37 +0000")
    }

    @Test func accessLogLinesAreCommonLogFormatWithTheRequestLineEscaped() {
        let log = LogRecorder()
        log.accessLog.record(client: "127.0.0.1", date: "06/Nov/1994:08:49:37 +0000", requestLine: "GET /a HTTP/1.1", status: 200, bodyBytes: 12)
        log.accessLog.record(client: "::1", date: "06/Nov/1994:08:49:37 +0000", requestLine: "GET /\"x\"\n\\é HTTP/1.1", status: 404, bodyBytes: 0)
        #expect(log.recorded == [
            "127.0.0.1 - - [06/Nov/1994:08:49:37 +0000] \"GET /a HTTP/1.1\" 200 12",
            "::1 - - [06/Nov/1994:08:49:37 +0000] \"GET /\\x22x\\x22\\x0a\\x5c\\xc3\\xa9 HTTP/1.1\" 404 -",
        ])
    }

    @Test func responseHeadsGetDateLengthAndConnection() {
        let response = ServerResponse(status: .ok, headerFields: [.contentType: "text/plain"], body: ByteBuffer(string: "hello"))
        let head = response.http1Head(date: "D", connection: .close)
        #expect(head.headers["Date"] == ["D"])
        #expect(head.headers["Content-Length"] == ["5"])
        #expect(head.headers["Connection"] == ["close"])
        #expect(response.http1Head(date: "D", connection: .keepAliveHTTP10).headers["Connection"] == ["keep-alive"])
        #expect(response.http1Head(date: "D", connection: .keepAlive).headers["Connection"] == [])
        let notModified = ServerResponse(status: .notModified, headerFields: [.date: "earlier"])
        #expect(notModified.http1Head(date: "D", connection: .keepAlive).headers["Content-Length"] == [])
        #expect(notModified.http1Head(date: "D", connection: .keepAlive).headers["Date"] == ["earlier"])
    }

    /// A layer that records its name in a response header on the way out.
    struct Tagging: Responder {
        var name: String
        var next: any Responder

        func respond(to request: ServerRequest) async throws(OriginUnavailable) -> ServerResponse {
            var response = try await next.respond(to: request)
            response.headerFields.append(HTTPField(name: HTTPField.Name("X-Layers")!, value: name))
            return response
        }
    }

    struct Fixed: Responder {
        func respond(to request: ServerRequest) async -> ServerResponse { ServerResponse(status: .ok) }
    }

    @Test func chainLayersWrapOutsideIn() async throws {
        let chain = ResponderChain(origin: Fixed(), layers: [
            ResponderChain.Layer { Tagging(name: "outer", next: $0) }, ResponderChain.Layer { Tagging(name: "inner", next: $0) },
        ])
        let response = try await chain.responder.respond(to: ServerRequest(method: .get, path: "/"))
        // The inner layer sees the origin's response first, so it appends first.
        #expect(response.headerFields[values: HTTPField.Name("X-Layers")!] == ["inner", "outer"])
    }

    @Test func cacheEvictsTheOldestEntriesPastItsLimit() {
        let cache = ResourceCache(byteLimit: 100)
        func resource(_ size: Int, _ name: String) -> CachedResource {
            CachedResource(
                location: ResourceLocation(sitePath: name, path: name, identity: nil, gzip: nil),
                identity: Representation(headerFields: [:], body: ResponseBody(ByteBuffer(repeating: 0, count: size))))
        }
        cache.store(resource(40, "/a"), for: "/a")
        cache.store(resource(40, "/b"), for: "/b")
        cache.store(resource(40, "/c"), for: "/c")
        #expect(cache.byteCount == 80)
        #expect(cache.resource(for: "/a") == nil)
        #expect(cache.resource(for: "/c") != nil)
        cache.store(resource(101, "/big"), for: "/big")
        #expect(cache.resource(for: "/big") == nil)
        cache.store(resource(10, "/c"), for: "/c")
        #expect(cache.byteCount == 50)
    }
}
