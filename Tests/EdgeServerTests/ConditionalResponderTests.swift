import EdgeServer
import HTTPTypes
import NIOCore
import Testing

/// serving.md §3 items 6–15, driven through the conditional layer over a two-representation origin.
@Suite struct ConditionalResponderTests {
    let responder = ConditionalResponder(wrapping: TwoRepresentationOrigin())
    let lastModified = TwoRepresentationOrigin.lastModified

    func get(_ fields: HTTPFields, method: HTTPRequest.Method = .get) async throws -> ServerResponse {
        try await responder.respond(to: request(method, fields))
    }

    /// A 412 or 416 replacing the 200: plain text that no cache stores, without the 200's
    /// validators and body fields, but with its CORS field so browsers can read it.
    func expectUncacheableError(_ response: ServerResponse, _ status: HTTPResponse.Status, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(response.headerFields[.cacheControl] == "no-store", sourceLocation: sourceLocation)
        #expect(response.headerFields[.contentType] == "text/plain; charset=utf-8", sourceLocation: sourceLocation)
        #expect(response.headerFields[.contentLength] == String(response.body.readableBytes), sourceLocation: sourceLocation)
        #expect(response.headerFields[.eTag] == nil && response.headerFields[.lastModified] == nil, sourceLocation: sourceLocation)
        #expect(response.headerFields[.accessControlAllowOrigin] == "*", sourceLocation: sourceLocation)
    }

    // MARK: 304 and 412

    /// Item 6: a 304 keeps the caching fields and drops the body's.
    @Test func notModifiedKeepsCachingFieldsAndDropsBodyFields() async throws {
        let response = try await get([.acceptEncoding: "gzip", .ifNoneMatch: TwoRepresentationOrigin.gzipTag])
        #expect(response.status == .notModified)
        #expect(response.body.readableBytes == 0)
        #expect(response.headerFields[.eTag] == TwoRepresentationOrigin.gzipTag)
        #expect(response.headerFields[.vary] == "Accept-Encoding")
        #expect(response.headerFields[.cacheControl] == "public, max-age=31536000, immutable")
        #expect(response.headerFields[.accessControlAllowOrigin] == "*")
        for dropped: HTTPField.Name in [.contentType, .contentEncoding, .contentLength, .lastModified] {
            #expect(response.headerFields[dropped] == nil, "\(dropped) must not be on a 304")
        }
    }

    /// Item 7: weak comparison, lists and `*`.
    @Test(arguments: ["W/\"id-0123abcd-gz\"", "\"x\", \"id-0123abcd-gz\"", "*"])
    func ifNoneMatchUsesWeakComparisonListsAndStar(value: String) async throws {
        let response = try await get([.acceptEncoding: "gzip", .ifNoneMatch: value])
        #expect(response.status == .notModified)
    }

    /// An origin whose `ETag` is whatever the test sets, malformed or not.
    struct TaggedOrigin: Responder {
        var entityTag: String
        func respond(to request: ServerRequest) async -> ServerResponse {
            ServerResponse(status: .ok, headerFields: [.eTag: entityTag], body: ByteBuffer(string: "body"))
        }
    }

    /// Echoing the `ETag` back is a match only when it is a well-formed tag: a malformed one
    /// matches nothing (RFC 9110 §13.1.2 compares entity tags), so the full response is sent.
    @Test(arguments: [("\"a\"", 304), ("W/\"a\"", 304), ("a", 200), ("\"a\" \"b\"", 200), ("\"a", 200)])
    func anEchoedTagMatchesOnlyWhenWellFormed(entityTag: String, status: Int) async throws {
        let responder = ConditionalResponder(wrapping: TaggedOrigin(entityTag: entityTag))
        let response = try await responder.respond(to: request(.get, [.ifNoneMatch: entityTag]))
        #expect(response.status.code == status)
    }

    /// Item 8: the identity tag does not validate the gzip representation.
    @Test func anotherRepresentationsTagDoesNotMatch() async throws {
        let response = try await get([.acceptEncoding: "gzip", .ifNoneMatch: TwoRepresentationOrigin.identityTag])
        #expect(response.status == .ok)
        #expect(response.headerFields[.contentEncoding] == "gzip")
        #expect(response.body.buffer == TwoRepresentationOrigin.gzipBody)
    }

    /// Item 9: `If-Modified-Since` is ignored when `If-None-Match` is present.
    @Test func ifModifiedSinceIsIgnoredUnderIfNoneMatch() async throws {
        let response = try await get([.ifNoneMatch: "\"nope\"", .ifModifiedSince: lastModified.imfFixdate])
        #expect(response.status == .ok)
    }

    /// Item 10: "earlier or equal" — the same date and a later one give 304; an earlier date, an
    /// invalid date or a list of dates give 200.
    @Test(arguments: [
        (Int64(0), HTTPResponse.Status.notModified), (86_400, .notModified), (-1, .ok),
    ])
    func ifModifiedSinceUsesEarlierOrEqual(offset: Int64, status: HTTPResponse.Status) async throws {
        let response = try await get([.ifModifiedSince: lastModified.adding(offset).imfFixdate])
        #expect(response.status == status)
    }

    @Test(arguments: ["garbage", "Sun, 06 Nov 1994 08:49:37 GMT, Sun, 06 Nov 1994 08:49:37 GMT"])
    func invalidIfModifiedSinceIsIgnored(value: String) async throws {
        #expect(try await get([.ifModifiedSince: value]).status == .ok)
    }

    @Test(arguments: [
        (TwoRepresentationOrigin.identityTag, HTTPResponse.Status.ok), ("*", .ok), ("\"x\"", .preconditionFailed),
        ("W/\"id-0123abcd\"", .preconditionFailed), ("garbage", .preconditionFailed),
    ])
    func ifMatchUsesStrongComparison(value: String, status: HTTPResponse.Status) async throws {
        #expect(try await get([.ifMatch: value]).status == status)
    }

    @Test(arguments: [(Int64(0), HTTPResponse.Status.ok), (60, .ok), (-1, .preconditionFailed)])
    func ifUnmodifiedSinceFailsForAnEarlierDate(offset: Int64, status: HTTPResponse.Status) async throws {
        #expect(try await get([.ifUnmodifiedSince: lastModified.adding(offset).imfFixdate]).status == status)
    }

    @Test func ifUnmodifiedSinceCountsOnlyWithoutIfMatch() async throws {
        let fields: HTTPFields = [.ifMatch: TwoRepresentationOrigin.identityTag, .ifUnmodifiedSince: lastModified.adding(-1).imfFixdate]
        #expect(try await get(fields).status == .ok)
        #expect(try await get([.ifUnmodifiedSince: "garbage"]).status == .ok)
    }

    @Test func preconditionFailedIsAnUncacheableTextErrorThatNamesTheField() async throws {
        let response = try await get([.ifMatch: "\"x\""])
        expectUncacheableError(response, .preconditionFailed)
        #expect(response.text.contains("If-Match does not hold"))
        #expect(response.text.contains(TwoRepresentationOrigin.identityTag))
    }

    /// If-None-Match is evaluated before If-Match would matter: 412 wins.
    @Test func ifMatchFailureWinsOverIfNoneMatch() async throws {
        let response = try await get([.ifMatch: "\"x\"", .ifNoneMatch: TwoRepresentationOrigin.identityTag])
        #expect(response.status == .preconditionFailed)
    }

    @Test func headGetsNotModifiedToo() async throws {
        let response = try await get([.ifNoneMatch: TwoRepresentationOrigin.identityTag], method: .head)
        #expect(response.status == .notModified)
    }

    @Test func otherStatusesAndMethodsPassThrough() async throws {
        let missing = ConditionalResponder(wrapping: TwoRepresentationOrigin(status: .notFound))
        #expect(try await missing.respond(to: request(.get, [.ifNoneMatch: "*"])).status == .notFound)
        #expect(try await get([.ifNoneMatch: "*"], method: .post).status == .ok)
        #expect(try await get([.range: "bytes=0-1"], method: .post).status == .ok)
    }

    // MARK: Ranges

    /// Item 11: one range, a suffix range and an open range.
    @Test(arguments: [("bytes=0-99", 0..<100), ("bytes=-10", 990..<1000), ("bytes=100-", 100..<1000)])
    func singleRangeGivesPartialContent(value: String, expected: Range<Int>) async throws {
        let response = try await get([.range: value])
        #expect(response.status == .partialContent)
        #expect(response.headerFields[.contentRange] == "bytes \(expected.lowerBound)-\(expected.upperBound - 1)/1000")
        #expect(response.headerFields[.contentLength] == String(expected.count))
        #expect(response.bytes == Array(Array(TwoRepresentationOrigin.identityBody.readableBytesView)[expected]))
        #expect(response.headerFields[.eTag] == TwoRepresentationOrigin.identityTag)
        #expect(response.headerFields[.vary] == "Accept-Encoding")
        #expect(response.headerFields[.cacheControl] == "public, max-age=31536000, immutable")
    }

    /// Item 12: with gzip negotiated the range counts gzip bytes.
    @Test func rangeAppliesToTheSelectedRepresentation() async throws {
        let response = try await get([.acceptEncoding: "gzip", .range: "bytes=0-99"])
        #expect(response.status == .partialContent)
        #expect(response.headerFields[.contentEncoding] == "gzip")
        #expect(response.headerFields[.contentRange] == "bytes 0-99/600")
        #expect(response.headerFields[.eTag] == TwoRepresentationOrigin.gzipTag)
        #expect(response.bytes == Array(Array(TwoRepresentationOrigin.gzipBody.readableBytesView)[0..<100]))
    }

    /// Item 13.
    @Test func unsatisfiableRangeGives416WithTheLength() async throws {
        let response = try await get([.range: "bytes=999999999-"])
        expectUncacheableError(response, .rangeNotSatisfiable)
        #expect(response.headerFields[.contentRange] == "bytes */1000")
        #expect(response.text.contains("1000 bytes long"))
    }

    /// Item 14: a strong tag or the exact `Last-Modified` date keeps the range; anything else
    /// gives the full 200.
    @Test(arguments: [
        (TwoRepresentationOrigin.identityTag, HTTPResponse.Status.partialContent), ("\"stale\"", .ok),
        ("W/\"id-0123abcd\"", .ok), ("Sun, 06 Nov 1994 08:49:37 GMT", .partialContent),
        ("Sun, 06 Nov 1994 08:49:38 GMT", .ok), ("garbage", .ok),
    ])
    func ifRangeNeedsAStrongMatch(value: String, status: HTTPResponse.Status) async throws {
        let response = try await get([.range: "bytes=0-9", .ifRange: value])
        #expect(response.status == status)
        #expect(response.body.readableBytes == (status == .ok ? 1000 : 10))
    }

    /// Item 15: several ranges give the whole representation, never only the first range.
    @Test(arguments: ["bytes=0-9,20-29", "bytes=0-9, 5000-"])
    func severalRangesGiveTheFullResponse(value: String) async throws {
        let response = try await get([.range: value])
        #expect(response.status == .ok)
        #expect(response.headerFields[.contentRange] == nil)
        #expect(response.body.buffer == TwoRepresentationOrigin.identityBody)
    }

    @Test(arguments: ["bytes=9-0", "pages=1-2", "bytes=x"])
    func invalidRangeSyntaxIsIgnored(value: String) async throws {
        #expect(try await get([.range: value]).status == .ok)
    }

    @Test func preconditionsComeBeforeRangesAndHeadIgnoresRanges() async throws {
        #expect(try await get([.range: "bytes=0-9", .ifNoneMatch: TwoRepresentationOrigin.identityTag]).status == .notModified)
        #expect(try await get([.range: "bytes=0-9"], method: .head).status == .ok)
    }
}
