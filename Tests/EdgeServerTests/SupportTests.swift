import HTTPTypes
import NIOCore
import Testing
@testable import EdgeServer

@Suite struct SupportTests {
    /// A 304 prepared ahead is the one ``ServerResponse/notModified()`` builds, and a change to
    /// the fields after preparing drops it.
    @Test func aPreparedNotModifiedFollowsTheFields() {
        var response = ServerResponse(
            status: .ok,
            headerFields: [.eTag: "\"1\"", .lastModified: "Sun, 06 Nov 1994 08:49:37 GMT", .contentType: "text/plain", .cacheControl: "max-age=60"],
            body: ByteBuffer(string: "x")
        )
        let built = response.notModified()
        #expect(built.headerFields == [.eTag: "\"1\"", .cacheControl: "max-age=60"])
        response.prepareNotModified()
        #expect(response.notModified().headerFields == built.headerFields)
        response.headerFields[.cacheControl] = "no-cache"
        #expect(response.notModified().headerFields == [.eTag: "\"1\"", .cacheControl: "no-cache"])
    }

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

    private func head(_ response: ServerResponse, _ connection: ConnectionDisposition) -> String {
        var buffer = ByteBuffer()
        response.writeHTTP1Head(to: &buffer, date: "D", connection: connection)
        return String(buffer: buffer)
    }

    @Test func responseHeadsGetDateLengthAndConnection() {
        let response = ServerResponse(status: .ok, headerFields: [.contentType: "text/plain"], body: ByteBuffer(string: "hello"))
        #expect(head(response, .close) == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nDate: D\r\nContent-Length: 5\r\nConnection: close\r\n\r\n")
        #expect(head(response, .keepAliveHTTP10).hasSuffix("Content-Length: 5\r\nConnection: keep-alive\r\n\r\n"))
        #expect(head(response, .keepAlive).hasSuffix("Date: D\r\nContent-Length: 5\r\n\r\n"))
        let notModified = ServerResponse(status: .notModified, headerFields: [.date: "earlier", .eTag: "\"1\""])
        #expect(head(notModified, .keepAlive) == "HTTP/1.1 304 Not Modified\r\nDate: earlier\r\nETag: \"1\"\r\n\r\n")
    }

    @Test func responseHeadsKeepTheirOwnLengthAndReplaceTheirConnectionField() {
        let empty = ServerResponse(status: .init(code: 414, reasonPhrase: "URI Too Long"), headerFields: [.connection: "keep-alive"])
        #expect(head(empty, .close) == "HTTP/1.1 414 URI Too Long\r\nDate: D\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        #expect(head(empty, .keepAlive) == "HTTP/1.1 414 URI Too Long\r\nConnection: keep-alive\r\nDate: D\r\nContent-Length: 0\r\n\r\n")
        let partial = ServerResponse(
            status: .partialContent, headerFields: [.contentLength: "2", .contentRange: "bytes 0-1/1234567890123"], body: ByteBuffer(string: "ab"))
        #expect(head(partial, .keepAlive) == "HTTP/1.1 206 Partial Content\r\nContent-Length: 2\r\nContent-Range: bytes 0-1/1234567890123\r\nDate: D\r\n\r\n")
        let large = ServerResponse(status: .ok, headerFields: [:], body: ResponseBody(ByteBuffer(repeating: 0, count: 1_234_567)))
        #expect(head(large, .keepAlive).contains("Content-Length: 1234567\r\n"))
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
