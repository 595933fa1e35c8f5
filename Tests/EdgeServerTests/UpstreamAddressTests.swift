import Testing

@testable import EdgeServer

@Suite struct UpstreamAddressTests {
    @Test(arguments: [
        ("http://127.0.0.1:8000", "http", "127.0.0.1:8000", ""),
        ("HTTPS://example.com/", "https", "example.com", ""),
        ("http://[::1]:5000/api/v1/", "http", "[::1]:5000", "/api/v1"),
        ("http://localhost", "http", "localhost", ""),
    ])
    func parses(url: String, scheme: String, authority: String, prefix: String) throws {
        let address = try UpstreamAddress(parsing: url)
        #expect(address.scheme == scheme)
        #expect(address.authority == authority)
        #expect(address.pathPrefix == prefix)
    }

    @Test(arguments: [
        ("127.0.0.1:8000", "expected http://host[:port][/prefix]"),
        ("ftp://host", "the scheme must be http or https, found ftp"),
        ("http://host/a?b", "a query or fragment has no meaning in an upstream address"),
        ("http:///path", "expected a host (without user information) after http://"),
        ("http://user@host", "expected a host (without user information) after http://"),
        ("http://host:0", "the port must be a number from 1 to 65535, found 0"),
        ("http://host:http", "the port must be a number from 1 to 65535, found http"),
    ])
    func rejects(url: String, problem: String) {
        #expect(throws: UpstreamAddressError(url: url, problem: problem)) { try UpstreamAddress(parsing: url) }
    }
}
