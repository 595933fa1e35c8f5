import HTTPTypes
import Testing

@testable import EdgeServer

@Suite struct EdgeDirectiveTests {
    @Test func parsesTheDirectivesASharedCacheActsOn() {
        let directives = CacheDirectives([
            .cacheControl: "Public, MAX-AGE=60, s-maxage=\"300\", stale-while-revalidate=5, stale-if-error=86400, must-revalidate, immutable"
        ])
        #expect(directives.isPublic && directives.mustRevalidate)
        #expect(directives.maxAge == 60)
        #expect(directives.sharedMaxAge == 300)
        #expect(directives.staleWhileRevalidate == 5)
        #expect(directives.staleIfError == 86400)
        #expect(!directives.noStore && !directives.noCache && !directives.isPrivate)
    }

    @Test func combinesFieldLinesAndKeepsTheFirstOfARepeatedDirective() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .cacheControl, value: "max-age=10"))
        fields.append(HTTPField(name: .cacheControl, value: "max-age=20, no-store"))
        let directives = CacheDirectives(fields)
        #expect(directives.maxAge == 10)
        #expect(directives.noStore)
    }

    @Test(arguments: [
        ("max-age=abc", 0), ("max-age=", 0), ("max-age", 0), ("max-age=-5", 0), ("max-age=99999999999999999999", 2_147_483_648),
        ("max-age=1.5", 0),
    ])
    func invalidDeltaSecondsCountAsZeroAndHugeOnesSaturate(value: String, maxAge: Int) {
        #expect(CacheDirectives([.cacheControl: value]).maxAge == maxAge)
    }

    @Test func skipsMalformedElementsAndQualifiedForms() {
        let directives = CacheDirectives([.cacheControl: "=junk, private=\"set-cookie, x\", \"quoted\" stray, no-cache=\"a\", max-age=5"])
        #expect(directives.isPrivate)
        #expect(directives.noCache)
        #expect(directives.maxAge == 5)
    }

    @Test func staleAllowances() {
        let window = CacheDirectives([.cacheControl: "s-maxage=5, stale-while-revalidate=5, stale-if-error=10"])
        #expect(window.mayServeWhileRevalidating(staleness: 5))
        #expect(!window.mayServeWhileRevalidating(staleness: 5.5))
        #expect(window.mayServeOnError(staleness: 10))
        #expect(!window.mayServeOnError(staleness: 11))
        #expect(CacheDirectives([.cacheControl: "max-age=5"]).mayServeOnError(staleness: 1000))
        #expect(!CacheDirectives([.cacheControl: "max-age=5, no-cache, stale-while-revalidate=9"]).mayServeWhileRevalidating(staleness: 1))
    }

    /// RFC 9213: a valid `CDN-Cache-Control` replaces `Cache-Control` for the edge.
    @Test func aValidCDNCacheControlReplacesCacheControl() {
        let directives = CacheDirectives([.cacheControl: "no-store, max-age=5", .cdnCacheControl: "max-age=600, stale-if-error=60, no-cache=(\"a\")"])
        #expect(!directives.noStore)
        #expect(directives.maxAge == 600)
        #expect(directives.staleIfError == 60)
        #expect(directives.noCache)
    }

    /// An invalid dictionary, or a known directive of the wrong type, leaves `Cache-Control` in charge.
    @Test(arguments: ["max-age=10000, &&&&&", "max-age=\"10000\"", "MaX-aGe=3600", "max-age=-1", "private=1", "max-age=10,"])
    func anInvalidCDNCacheControlIsIgnored(value: String) {
        let directives = CacheDirectives([.cacheControl: "no-store", .cdnCacheControl: value])
        #expect(directives.noStore)
        #expect(directives.maxAge == nil)
    }

    @Test func mustUnderstandIsParsed() {
        #expect(CacheDirectives([.cacheControl: "no-store, must-understand"]).mustUnderstand)
    }
}
