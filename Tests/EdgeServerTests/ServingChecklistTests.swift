import Crypto
import Foundation
import Gzip
import SitePolicy
import Testing
@testable import EdgeServer

/// serving.md §3, items 1–5 and 16–24, over a real socket.
@Suite(.timeLimit(.minutes(1)))
struct ServingChecklistTests {
    static let bundle = "/bundles/front-page.0123456789abcdef.bundle"
    static let bundleBytes = sampleBytes(20_000)
    static let manifestText = "{\"schema_version\":1}"

    /// The fixture site: a hashed bundle with its `.gz`, a manifest, an HTML page.
    static func makeSite(_ label: String = #function) throws -> TestSite {
        let site = try TestSite(label)
        try site.writeWithSidecar(String(bundle.dropFirst()), bundleBytes)
        try site.write("bundles/manifest.json", manifestText)
        try site.write("index.html", "<!doctype html><title>Demo</title>")
        return site
    }

    static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    @Test func item1IdentityHeaders() async throws {
        try await serving(Self.makeSite()) { server in
            let response = try await TestConnection.with(port: server.port) { try await $0.exchange("HEAD", Self.bundle) }
            #expect(response.status == 200)
            #expect(response["Content-Encoding"] == nil)
            #expect(response["Content-Length"] == String(Self.bundleBytes.count))
            #expect(response["Content-Type"] == "application/octet-stream")
            #expect(response["Vary"] == "Accept-Encoding")
            #expect(response["ETag"] == "\"\(Self.sha256(Self.bundleBytes))\"")
            #expect(response["Last-Modified"]?.hasSuffix(" GMT") == true)
            #expect(response["Date"]?.hasSuffix(" GMT") == true)
            #expect(response["Cache-Control"] == "public, max-age=31536000, immutable")
            #expect(response["Accept-Ranges"] == "bytes")
            #expect(response["X-Content-Type-Options"] == "nosniff")
        }
    }

    @Test func items2And3GzipRepresentation() async throws {
        try await serving(Self.makeSite()) { server in
            let (identity, gzip) = try await TestConnection.with(port: server.port) { connection in
                (try await connection.exchange("GET", Self.bundle), try await connection.exchange("GET", Self.bundle, ["Accept-Encoding: gzip"]))
            }
            let gzipFile = try GzipCompressor.compress(Self.bundleBytes)
            #expect(gzip.status == 200)
            #expect(gzip["Content-Encoding"] == "gzip")
            #expect(gzip["Content-Length"] == String(gzipFile.count))
            #expect(gzip.body == gzipFile)
            #expect(gzip["Vary"] == "Accept-Encoding")
            #expect(gzip["Cache-Control"] == identity["Cache-Control"])
            #expect(gzip["ETag"] == "\"\(Self.sha256(Self.bundleBytes))-gz\"")
            #expect(gzip["ETag"] != identity["ETag"])
            // Item 3: the decompressed body is the identity file, whose hash the ETag carries.
            #expect(Self.sha256(try GzipDecompressor.decompress(gzip.body)) == Self.sha256(identity.body))
            #expect(identity.body == Self.bundleBytes)
        }
    }

    @Test func item4NegotiationVariants() async throws {
        try await withConnection(serving: Self.makeSite()) { connection in
            for field in ["gzip;q=0", "br", "identity"] {
                let response = try await connection.exchange("HEAD", Self.bundle, ["Accept-Encoding: \(field)"])
                #expect(response["Content-Encoding"] == nil, "Accept-Encoding: \(field)")
            }
            #expect(try await connection.exchange("HEAD", Self.bundle, ["Accept-Encoding: GZIP"])["Content-Encoding"] == "gzip")
            let refused = try await connection.exchange("GET", "/bundles/manifest.json", ["Accept-Encoding: identity;q=0"])
            #expect(refused.status == 406)
            #expect(refused["Vary"] == "Accept-Encoding")
            #expect(refused["Cache-Control"] == "no-store")
        }
    }

    @Test func item5HeadHasTheHeadersOfGetWithoutTheBody() async throws {
        try await withConnection(serving: Self.makeSite()) { connection in
            for headers in [[], ["Accept-Encoding: gzip"]] {
                let head = try await connection.exchange("HEAD", Self.bundle, headers)
                // Had HEAD sent a body, this response would not parse.
                let get = try await connection.exchange("GET", Self.bundle, headers)
                #expect(head.body.isEmpty)
                #expect(head.headers.filter { $0.name != "Date" }.map { "\($0.name): \($0.value)" }
                    == get.headers.filter { $0.name != "Date" }.map { "\($0.name): \($0.value)" })
            }
        }
    }

    @Test func item16OtherMethodsGet405WithAllow() async throws {
        try await withConnection(serving: Self.makeSite()) { connection in
            for method in ["POST", "DELETE", "PUT", "PATCH"] {
                try await connection.send("\(method) \(Self.bundle) HTTP/1.1\r\nHost: test\r\nContent-Length: 3\r\n\r\nabc")
                let response = try await connection.response()
                #expect(response.status == 405)
                #expect(response["Allow"] == "GET, HEAD, OPTIONS")
                #expect(response["Cache-Control"] == "no-store")
            }
            // The connection stayed in step: the bodies were read.
            #expect(try await connection.exchange("GET", Self.bundle).status == 200)
        }
    }

    @Test func item17ManifestHeaders() async throws {
        try await serving(Self.makeSite()) { server in
            let response = try await TestConnection.with(port: server.port) { try await $0.exchange("GET", "/bundles/manifest.json") }
            #expect(response["Content-Type"] == "application/json")
            #expect(response["Cache-Control"] == "public, max-age=60, s-maxage=300")
            #expect(response["ETag"] == "\"\(Self.sha256(Array(Self.manifestText.utf8)))\"")
            #expect(response["Vary"] == "Accept-Encoding")
            #expect(response.text == Self.manifestText)
        }
    }

    @Test func item18CORS() async throws {
        try await withConnection(serving: Self.makeSite()) { connection in
            let get = try await connection.exchange("GET", Self.bundle, ["Origin: https://app.test"])
            #expect(get["Access-Control-Allow-Origin"] == "*")
            #expect(get["Access-Control-Expose-Headers"] == "ETag, Age, X-Cache, Cache-Status")
            let preflight = try await connection.exchange(
                "OPTIONS", Self.bundle,
                ["Origin: https://app.test", "Access-Control-Request-Method: GET", "Access-Control-Request-Headers: if-none-match"])
            #expect(preflight.status == 204)
            #expect(preflight["Access-Control-Allow-Origin"] == "*")
            #expect(preflight["Access-Control-Allow-Methods"] == "GET, HEAD, OPTIONS")
            #expect(preflight["Access-Control-Allow-Headers"]?.lowercased().contains("if-none-match") == true)
            #expect(preflight["Access-Control-Max-Age"] == "86400")
            // Not a CORS path, or not a preflight: only Allow.
            let page = try await connection.exchange("OPTIONS", "/index.html", ["Origin: https://app.test", "Access-Control-Request-Method: GET"])
            #expect(page.status == 204)
            #expect(page["Allow"] == "GET, HEAD, OPTIONS")
            #expect(page["Access-Control-Allow-Origin"] == nil)
            #expect(try await connection.exchange("GET", "/index.html", ["Origin: https://app.test"])["Access-Control-Allow-Origin"] == nil)
        }
    }

    @Test func item19NotFoundIsPlainUncodedAndUncached() async throws {
        try await serving(Self.makeSite()) { server in
            let response = try await TestConnection.with(port: server.port) { try await $0.exchange("GET", "/bundles/nope.bundle", ["Accept-Encoding: gzip"]) }
            #expect(response.status == 404)
            #expect(response["Content-Type"] == "text/plain; charset=utf-8")
            #expect(response["Content-Encoding"] == nil)
            #expect(response["Cache-Control"] == "no-store")
            #expect(response["Vary"] == nil)
            #expect(response["Access-Control-Allow-Origin"] == "*")
            #expect(response.text.hasPrefix("404 Not Found"))
        }
    }

    @Test func item24QueryIsIgnored() async throws {
        try await withConnection(serving: Self.makeSite()) { connection in
            let plain = try await connection.exchange("HEAD", Self.bundle)
            let withQuery = try await connection.exchange("HEAD", Self.bundle + "?v=1")
            #expect(withQuery.status == 200)
            #expect(withQuery["ETag"] == plain["ETag"])
        }
    }

    @Test func headerPolicyRulesAndContentTypeOverride() async throws {
        let policy = HeaderPolicy(
            rules: [
                HeaderRule(
                    pattern: try PathPattern("/bundles/*.bundle"),
                    fields: [
                        try HeaderField(validatingName: "Cache-Control", value: "public, max-age=5"),
                        try HeaderField(validatingName: "Content-Type", value: "application/x-firestore-bundle"),
                    ])
            ],
            cors: try CORSPolicy(allowOrigin: "https://app.example.com", paths: [try PathPattern("/bundles/manifest.json")]))
        try await withConnection(serving: Self.makeSite(), policy: policy) { connection in
            let bundle = try await connection.exchange("HEAD", Self.bundle, ["Accept-Encoding: gzip"])
            #expect(bundle["Cache-Control"] == "public, max-age=5")
            #expect(bundle["Content-Type"] == "application/x-firestore-bundle")
            #expect(bundle["Content-Encoding"] == "gzip")
            #expect(bundle["Access-Control-Allow-Origin"] == nil)
            let manifest = try await connection.exchange("HEAD", "/bundles/manifest.json")
            #expect(manifest["Cache-Control"] == HeaderPolicy.manifestCacheControl)
            #expect(manifest["Access-Control-Allow-Origin"] == "https://app.example.com")
            let page = try await connection.exchange("HEAD", "/")
            #expect(page["Cache-Control"] == HeaderPolicy.htmlCacheControl)
            #expect(page["Content-Type"] == "text/html; charset=utf-8")
        }
    }
}
