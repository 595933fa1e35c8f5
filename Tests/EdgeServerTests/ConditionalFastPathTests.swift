import EdgeServer
import HTTPTypes
import Testing

/// `ConditionalResponder.respondImmediately`: the layer behind answers at once, then the same
/// precondition and range evaluation as `respond` turns its 200 into 304, 412, 206 or 416.
@Suite struct ConditionalFastPathTests {
    static let bundle = OriginFastPathTests.bundle

    @Test func declinesWhenTheLayerBehindDeclines() throws {
        let site = try OriginFastPathTests.makeSite()
        defer { site.remove() }
        let responder = ConditionalResponder(wrapping: SiteOrigin(directory: site.path))
        #expect(responder.respondImmediately(to: request(.get, [.ifNoneMatch: "*"], path: Self.bundle)) == nil)
        #expect(responder.respondImmediately(to: request(.get, [.range: "bytes=0-9"], path: Self.bundle)) == nil)
    }

    @Test func answersConditionalsAndRangesAsRespondDoes() async throws {
        let site = try OriginFastPathTests.makeSite()
        defer { site.remove() }
        let responder = ConditionalResponder(wrapping: SiteOrigin(directory: site.path))
        let identity = try await responder.respond(to: request(.get, path: Self.bundle))
        let identityTag = try #require(identity.headerFields[.eTag])
        let gzipTag = try #require(try await responder.respond(to: request(.get, [.acceptEncoding: "gzip"], path: Self.bundle)).headerFields[.eTag])
        let lastModified = try #require(identity.headerFields[.lastModified])
        let cases: [(HTTPRequest.Method, HTTPFields, HTTPResponse.Status)] = [
            (.get, [:], .ok),
            (.get, [.acceptEncoding: "gzip", .ifNoneMatch: gzipTag], .notModified),
            (.head, [.ifNoneMatch: "\"other\", \(identityTag)"], .notModified),
            (.get, [.acceptEncoding: "gzip", .ifNoneMatch: identityTag], .ok),
            (.get, [.ifModifiedSince: lastModified], .notModified),
            (.get, [.ifMatch: "\"other\""], .preconditionFailed),
            (.get, [.range: "bytes=0-99"], .partialContent),
            (.get, [.acceptEncoding: "gzip", .range: "bytes=-10", .ifRange: gzipTag], .partialContent),
            (.get, [.range: "bytes=0-99", .ifRange: "\"stale\""], .ok),
            (.get, [.range: "bytes=999999-"], .rangeNotSatisfiable),
        ]
        for (method, fields, status) in cases {
            let conditional = request(method, fields, path: Self.bundle)
            let fast = responder.respondImmediately(to: conditional)
            #expect(fast?.status == status, "\(method) \(fields)")
            expectSameResponse(fast, try await responder.respond(to: conditional))
        }
    }
}
